"""Deterministic GPU tools: pure functions with pydantic inputs and results, no LLM involved."""
