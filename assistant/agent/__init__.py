"""The agent: LangChain tools over the deterministic tools, the backends, and ask().

- `toolset`: every tool as a LangChain `StructuredTool` (pydantic input schema, JSON results)
- `prompts`: the system prompt
- `backends`: `offline`, `openai:<model>`, `ollama:<model>` chat models, chosen by name
- `factory`: `build_agent(backend)` with `langchain.agents.create_agent`, cached per name
- `api`: `ask()` / `ask_stream()`, input guards (`guards`), the run's record (`collect`) and the
  fallback to `offline` when another backend fails
- `offline`: the deterministic chat model behind the default backend
"""
