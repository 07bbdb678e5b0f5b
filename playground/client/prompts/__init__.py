"""The prompt library without Gradio: a prompt version's content, checked (`model`); partials
included by name and resolved when a version is opened (`partials`); the difference of two
versions (`diff`); the library as a file to export and import, bounded and checked whole
(`files`). What they keep is the store's (`playground.store.prompts`)."""
