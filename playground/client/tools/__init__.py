"""Mocked tools: a tool declared with its answer (fixed JSON, a template over the arguments, or
"ask me"), so a tool conversation runs by itself in the text tabs, Compare and Batch."""
