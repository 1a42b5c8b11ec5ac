"""The interfaces: Gradio chat, notebook display, Discord bot. They only convert between people and ask()."""
