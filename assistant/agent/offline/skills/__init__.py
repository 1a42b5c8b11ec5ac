"""One skill per kind of question: how the offline model asks a tool and words its answer.

How to add a skill (one tool → one skill):

1. Register the tool in `assistant/agent/toolset.py` TOOL_SPECS as usual.
2. Add `assistant/agent/offline/skills/<tool name>.py` defining `SKILL = Skill(...)`:
   - `tool`: the TOOL_SPECS name; `result`: the tool's pydantic result model;
   - `build(entities, reading) -> list[dict]`: the tool's arguments, with the tool's own field
     names (the planner keeps only the input model's fields and validates them; return `[]`
     when the question lacks what the tool needs);
   - `render(result, question, lang) -> str`: the answer's section, from the typed result
     model (never a dict), in English or French (`texts.pick`); its first sentence answers;
   - `search_hint`: words added to the corpus search when this skill answers;
   - `slots` / `needs`: the `Entities` fields the builder reads / of which one must be filled;
   - `concepts`: ids of the concept vocabulary that speak for this skill;
   - `fallback`: the skill to try when this one's builder returns nothing.
3. Add `<tool name>.toml` beside it: `[examples]` with `en = [...]` and `fr = [...]`, at least
   eight varied questions each, describing the kind of question (never a known test question).
4. Run `pytest tests/offline -x -q` and `python tools/eval_answers.py`: the registry test checks
   that skills and registered tools match one to one; remove the tool from its
   `TOOLS_WITHOUT_SKILL` allow-list there.

Skills are discovered: any module of this package (not starting with "_", not `base` or
`registry`) that defines `SKILL` is one.
"""

from __future__ import annotations

from assistant.agent.offline.skills.base import Examples, Skill
from assistant.agent.offline.skills.registry import all_skills, get_skill

__all__ = ["Examples", "Skill", "all_skills", "get_skill"]
