"""Structured output without writing JSON Schema by hand: a table of fields and the schema it
stands for (`fields`), each format's rules for a schema it accepts (`rules`), and an answer
checked against the schema with the first failing place named (`answer`). No Gradio."""
