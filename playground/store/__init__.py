"""The local store: one embedded SQLite database in `PLAYGROUND_DATA_DIR` (no server) holding
what a person keeps: Batch runs with their rows, cells, grades and votes (`runs`); the prompt library
(`prompts`: named prompts, their versions, labels and partials); later Report documents, each a module of its own over the same `Database` and a migration
of its own in `migrations`. Every record names its owner (hosted: a visitor's digest; locally
""). The store imports neither Gradio nor the UI nor the client: it stores what it is given."""
