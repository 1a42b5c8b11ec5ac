"""The chat under concurrent users: 20 `gradio_client` users on 127.0.0.1, a few questions each.

    python tools/bench_chat_load.py            # 20 users x 3 questions, at most 600 s
    python tools/bench_chat_load.py --quick    # 4 users x 1 question, at most 240 s

The page runs in its own process (`gpu-advisor chat`, offline backend, index built beforehand)
so the users' threads do not share its interpreter. Each user has its own client (its own
session, so its own rate-limit bucket) and asks through the page's `/chat` API. An error is an
exception, a timeout, an empty answer, or the page's polite error or rate-limit text.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from typing import Any

from _bench_common import (
    child_env,
    cli,
    finish,
    free_port,
    isolated_home,
    offline_env,
    parser,
    peak_rss_mb,
    say,
    stats,
)

QUESTIONS = [
    "Can my RTX 4090 do megakernels?",
    "Combien coûte une H100 pendant 50 heures ?",
    "Will Llama 3 70B fit in 24 GB?",
    "Spot at $0.80/h or dedicated at $2.50/h for a 100-hour run?",
    "Quelles fonctionnalités a ma RTX 5090 ?",
    "J'ai 200 €, louer ou acheter ?",
]


def _start_chat(port: int) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        [*cli(), "chat", "--json", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=child_env(),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # printed once the page is up
    if not line:
        proc.kill()
        raise RuntimeError("gpu-advisor chat exited before printing its URL")
    return proc, str(json.loads(line)["local_url"])


def _is_error(text: Any) -> bool:
    from assistant.ui import limits

    if not isinstance(text, str) or not text.strip():
        return True
    polite_failures = [*limits.ERROR_TEXT.values()]
    rate_prefixes = [t.split("{")[0] for t in limits.RATE_TEXT.values()]
    return text in polite_failures or any(text.startswith(p) for p in rate_prefixes)


def main(argv: list[str] | None = None) -> int:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--users", type=int, default=None, help="concurrent users (default 20)")
    p.add_argument("--questions", type=int, default=None, help="questions per user (default 3)")
    p.add_argument("--limit-s", type=float, default=None, help="time bound (default 600)")
    args = p.parse_args(argv)
    offline_env()
    users = args.users or (4 if args.quick else 20)
    per_user = args.questions or (1 if args.quick else 3)
    limit_s = args.limit_s or (240.0 if args.quick else 600.0)

    from gradio_client import Client

    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    with isolated_home():
        subprocess.run(
            [*cli(), "index", "--json"], env=child_env(), capture_output=True, check=True
        )
        proc, url = _start_chat(free_port())
        try:
            started = time.perf_counter()
            warm = Client(url, verbose=False).predict(QUESTIONS[0], api_name="/chat")
            warmup_s = time.perf_counter() - started
            if _is_error(warm):
                raise RuntimeError(f"the warm-up answer was an error: {warm!r}")
            deadline = time.monotonic() + limit_s

            def user(index: int) -> None:
                try:
                    client = Client(url, verbose=False)
                except Exception as exc:
                    with lock:
                        errors.extend([f"connect: {type(exc).__name__}"] * per_user)
                    return
                for j in range(per_user):
                    remaining = deadline - time.monotonic()
                    question = QUESTIONS[(index + j) % len(QUESTIONS)]
                    if remaining <= 0:
                        with lock:
                            errors.append("not sent: time bound reached")
                        continue
                    t0 = time.perf_counter()
                    try:
                        text = client.submit(question, api_name="/chat").result(timeout=remaining)
                        failed = _is_error(text)
                        reason = f"answer: {str(text)[:80]!r}"
                    except Exception as exc:
                        failed, reason = True, f"{type(exc).__name__}"
                    ms = (time.perf_counter() - t0) * 1000
                    with lock:
                        if failed:
                            errors.append(reason)
                        else:
                            latencies.append(ms)

            threads = [threading.Thread(target=user, args=(i,)) for i in range(users)]
            load_started = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=limit_s + 60)
            wall_s = time.perf_counter() - load_started
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()

    total = users * per_user
    say(f"{len(latencies)}/{total} answered, {len(errors)} errors in {wall_s:.1f} s")
    return finish(
        "chat_load",
        args,
        {
            "users": users,
            "questions_per_user": per_user,
            "requests": total,
            "time_bound_s": limit_s,
            "chat_concurrency": int(os.environ.get("GPU_ADVISOR_CHAT_CONCURRENCY", "4")),
            "warmup_s": round(warmup_s, 2),
            "wall_s": round(wall_s, 2),
            "answers_per_s": round(len(latencies) / wall_s, 3) if wall_s else None,
            "latency": stats(latencies),
            "errors": len(errors),
            "error_kinds": sorted(set(errors)),
            "page_process_peak_rss_mb": peak_rss_mb(children=True),
            "target": {"errors": 0, "met": not errors},
        },
        [
            "latency is per request as a user sees it: queueing behind the page's concurrency "
            "limit included",
            "the page and the users share this machine's cores",
        ],
    )


if __name__ == "__main__":
    raise SystemExit(main())
