"""The Batch tab's work without Gradio: prompt templates, data set readers, graders, the runner
with its resumable run file and cache, Elo ratings from blind votes, and cost from a price table."""
