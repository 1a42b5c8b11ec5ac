"""Issue 6 §1, §2 and §4 as a checklist: every item names the tests that assert it, at the outer
edges (this folder) and at unit level (the owning area). This test fails when an item loses its
tests, e.g. after a rename, so the checklist cannot silently rot."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

R = "tests/reliability/"

CHECKLIST: dict[str, list[str]] = {
    # §1 Bad input: a clear message, no traceback, and the process keeps serving.
    "1. empty, whitespace-only or 100 kB messages": [
        R + "test_reliability_bad_input.py::test_ask_survives_each_bad_input_and_keeps_serving",
        R
        + "test_reliability_bad_input.py::test_the_cli_process_answers_bad_lines_on_stdin_and_keeps_serving",
        R
        + "test_reliability_bad_input.py::test_the_chat_service_refuses_bad_messages_politely_and_keeps_serving",
        "tests/agent/test_agent_bad_input.py::test_empty_and_whitespace_questions_get_a_prompt_without_calling_the_model",
        "tests/agent/test_agent_bad_input.py::test_a_100_kb_message_is_cut_to_the_setting_with_a_notice",
        "tests/ui/test_ui_gradio.py::test_chat_api_caps_length_and_refuses_empty",
    ],
    "1. control characters and invalid UTF-8": [
        R + "test_reliability_bad_input.py::test_ask_survives_each_bad_input_and_keeps_serving",
        R
        + "test_reliability_bad_input.py::test_the_cli_process_answers_bad_lines_on_stdin_and_keeps_serving",
        "tests/agent/test_agent_bad_input.py::test_invalid_utf8_bytes_and_lone_surrogates_become_replacement_characters",
        "tests/agent/test_agent_cli.py::test_invalid_utf8_on_stdin_is_answered_not_crashed",
    ],
    "1. prompt injection in a question": [
        R + "test_reliability_bad_input.py::test_ask_survives_each_bad_input_and_keeps_serving",
        R
        + "test_reliability_bad_input.py::test_the_cli_process_answers_bad_lines_on_stdin_and_keeps_serving",
        R
        + "test_reliability_bad_input.py::test_the_chat_service_refuses_bad_messages_politely_and_keeps_serving",
    ],
    "1. prompt injection inside a corpus document": [
        R
        + "test_reliability_injection_corpus.py::test_an_injected_document_is_indexed_but_never_obeyed_quoted_or_cited",
    ],
    "1. out-of-range tool arguments: negative hours, NaN, unknown GPU, 10^12 € budget": [
        R + "test_reliability_tool_args.py::test_out_of_range_arguments_are_a_clear_error_value",
        R
        + "test_reliability_tool_args.py::test_an_unknown_gpu_is_a_result_with_suggestions_not_an_error",
        R
        + "test_reliability_tool_args.py::test_a_model_sending_bad_arguments_over_http_gets_errors_and_the_process_keeps_serving",
        "tests/agent/test_agent_loop.py::test_nan_and_huge_arguments_are_refused_not_crashed",
    ],
    "1. a 1000-turn history": [
        R
        + "test_reliability_bad_input.py::test_a_1000_turn_history_is_cut_to_the_setting_and_the_answer_still_comes",
        R
        + "test_reliability_bad_input.py::test_the_chat_service_refuses_bad_messages_politely_and_keeps_serving",
        "tests/agent/test_agent_bad_input.py::test_a_1000_turn_history_keeps_only_the_last_turns_from_settings",
    ],
    "1. a flood of messages from one user in the chat or on Discord": [
        "tests/ui/test_ui_gradio.py::test_flood_from_one_session_is_rate_limited_politely",
        "tests/ui/test_ui_discord.py::test_flood_from_one_user_is_refused_politely",
        "tests/ui/test_ui_discord.py::test_rate_limit_and_length_cap_answer_privately_without_asking",
    ],
    # §2 Faults.
    "2. an LLM endpoint that is down, slow, or returns malformed tool calls": [
        R + "test_reliability_secrets.py::test_no_key_in_stdout_or_stderr_of_the_cli_process",
        "tests/agent/test_agent_openai_stub.py::test_failing_server_falls_back_to_offline",
        "tests/agent/test_agent_openai_stub.py::test_unreachable_server_falls_back",
        "tests/agent/test_agent_openai_stub.py::test_streaming_failure_emits_notice_then_offline_answer",
    ],
    "2. nvidia-smi missing, hanging, or printing garbage": [
        R
        + "test_reliability_faults.py::test_a_broken_nvidia_smi_still_gets_an_answer_about_this_machine",
        "tests/probe/test_probe_smi.py::test_missing_binary_is_reported",
        "tests/probe/test_probe_smi.py::test_hanging_nvidia_smi_is_stopped_after_the_timeout",
        "tests/probe/test_probe_smi.py::test_garbage_is_reported_not_raised",
    ],
    "2. the Chroma directory deleted mid-run": [
        R
        + "test_reliability_faults.py::test_index_deleted_mid_run_answers_continue_and_a_rebuild_restores_it",
        "tests/retrieval/test_retrieval_index.py::test_deleted_index_during_a_run_is_rebuilt_on_next_search",
    ],
    "2. the Chroma directory corrupted mid-run": [
        R + "test_reliability_faults.py::test_index_corrupted_mid_run_is_set_aside_and_rebuilt",
        "tests/retrieval/test_retrieval_index.py::test_corrupted_index_is_set_aside_and_rebuilt",
    ],
    "2. the Chroma directory made read-only mid-run": [
        R
        + "test_reliability_faults.py::test_index_made_read_only_mid_run_gives_a_clear_error_then_recovers",
        "tests/retrieval/test_retrieval_index.py::test_unwritable_home_is_a_clear_error",
    ],
    "2. two processes indexing at once (a lock)": [
        R
        + "test_reliability_faults.py::test_two_processes_indexing_at_once_leave_one_consistent_index",
        "tests/retrieval/test_retrieval_index.py::test_two_processes_building_at_once_leave_one_consistent_index",
    ],
    "2. a corpus file removed": [
        R + "test_reliability_faults.py::test_a_removed_corpus_file_loses_its_chunks_after_reindex",
        "tests/retrieval/test_retrieval_index.py::test_removed_corpus_file_disappears_from_results",
    ],
    # §4 Secrets.
    "4. a key in the environment never appears in an answer, log line, error or the chat page": [
        R
        + "test_reliability_secrets.py::test_no_key_in_answers_events_or_debug_logs_of_a_failing_backend",
        R + "test_reliability_secrets.py::test_no_key_in_stdout_or_stderr_of_the_cli_process",
        R + "test_reliability_secrets.py::test_no_key_in_tool_errors",
        R + "test_reliability_secrets.py::test_no_key_on_the_chat_page_its_config_or_its_answers",
        "tests/agent/test_agent_secrets.py::test_no_secret_in_any_output_of_a_failing_backend",
        "tests/ui/test_ui_gradio.py::test_api_key_never_reaches_the_page",
    ],
}


@cache
def _test_names(path: str) -> frozenset[str]:
    file = REPO_ROOT / path
    if not file.is_file():
        return frozenset()
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    )


@pytest.mark.parametrize("item", list(CHECKLIST))
def test_every_item_is_asserted_at_the_edges_and_every_named_test_exists(item: str) -> None:
    references = CHECKLIST[item]
    missing = []
    for reference in references:
        path, _, name = reference.partition("::")
        if name not in _test_names(path):
            missing.append(reference)
    assert missing == [], f"{item}: these tests are gone: {missing}"
    # floods are an interface's own behaviour, asserted where the interfaces are
    if "flood" not in item:
        assert any(r.startswith(R) for r in references), f"{item}: nothing at the outer edges"


def test_the_checklist_covers_sections_1_2_and_4() -> None:
    sections = sorted({item.split(".")[0] for item in CHECKLIST})
    assert sections == ["1", "2", "4"]
    assert len(CHECKLIST) == 15
    assert Path(REPO_ROOT / R).is_dir()
