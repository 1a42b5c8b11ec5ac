"""Resolve a speed question (card, model, precision, backend) into numbers and estimate it."""

from __future__ import annotations

from dataclasses import dataclass, field

from assistant.knowledge.gpus import GpuCard
from assistant.knowledge.model_matching import match_model
from assistant.knowledge.models import ModelSpec, load_memory_rules
from assistant.knowledge.sources import Source, dedupe_sources
from assistant.knowledge.speed import (
    Backend,
    BackendEfficiency,
    Interconnect,
    Platform,
    SpeedRules,
    Split,
    load_speed_rules,
)
from assistant.tools.speed.core import (
    DecodeTime,
    bytes_per_token_gb,
    decode_time,
    generic_layers,
    prefill_tokens_per_s,
)
from assistant.tools.speed.models import SpeedEstimate, SpeedQuery

FORMULA = (
    "decode tokens/s = 1 / (bytes read per token ÷ (efficiency × bandwidth × cards in tensor "
    "parallel) + overhead per layer × layers + all-reduce latency × 2 × layers); bytes read per "
    "token = active parameters × bits per parameter ÷ 8 + KV cache (2 × layers × KV heads × head "
    "size × context × 2 bytes); prefill tokens/s = utilisation × FP16 tensor FLOPS ÷ (2 × active "
    "parameters)"
)
FORMULA_FR = (
    "tokens/s en génération = 1 / (octets lus par token ÷ (efficacité × bande passante × cartes en "
    "parallélisme de tenseurs) + surcoût par couche × couches + latence d'all-reduce × 2 × couches) ; "
    "octets lus par token = paramètres actifs × bits par paramètre ÷ 8 + cache KV (2 × couches × têtes "
    "KV × taille de tête × contexte × 2 octets) ; tokens/s du prompt = utilisation × FLOPS tensoriels "
    "FP16 ÷ (2 × paramètres actifs)"
)
_PLATFORM: dict[str, Platform] = {"nvidia": "cuda", "apple": "metal", "amd": "rocm"}


@dataclass
class Plan:
    """Every resolved input of one estimate."""

    card: GpuCard | None
    model: ModelSpec | None
    model_label: str | None
    backend: Backend
    platform: Platform
    fitted: BackendEfficiency
    params_b: float
    active_params_b: float
    precision: str
    bits_per_param: float
    bandwidth_gbs: float
    layers: float
    layers_known: bool
    weights_gb: float
    kv_gb: float
    context_tokens: int
    split: Split
    interconnect: Interconnect
    notes: list[str] = field(default_factory=list)
    notes_fr: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)

    @property
    def read_gb(self) -> float:
        """The memory read per generated token, in GB: the weights and the KV cache."""
        return self.weights_gb + self.kv_gb


REFERENCE_BANDWIDTH = 1000.0  # GB/s: the round figure a missing card's bound is shown at


class Unresolved(Exception):
    """The question cannot be estimated; the message says what is missing."""

    def __init__(
        self,
        message: str,
        suggestions: list[str] | None = None,
        model_kind: str | None = None,
        fr: str | None = None,
    ) -> None:
        super().__init__(message)
        self.suggestions = suggestions or []
        self.model_kind = model_kind
        self.fr = fr  # the message in French, when the raiser writes it (else translated)


def _card(q: SpeedQuery) -> GpuCard | None:
    if q.gpu is None:
        return None
    from assistant.knowledge.matching import match_gpu

    m = match_gpu(q.gpu)
    if m.gpu is None and q.bandwidth_gbs is None:
        raise Unresolved(
            f"'{q.gpu}' is not in the GPU catalog; give its memory bandwidth (bandwidth_gbs) to estimate it anyway.",
            m.suggestions,
        )
    return m.gpu


def _model(q: SpeedQuery) -> tuple[ModelSpec | None, str | None, float | None]:
    if q.model is None:
        return None, None, None
    from assistant.knowledge.model_matching import parse_param_count

    m = match_model(q.model)
    if m.model is not None and m.score >= 1.0 and not m.model.is_llm:
        raise Unresolved(
            f"{m.model.name} is not a language model ({m.model.kind}): this estimate is the decode "
            "speed of a language model (tokens/s) only; it gives no time per image or per video. "
            "workload_fit gives its memory fit.",
            model_kind=m.model.kind,
        )
    if m.model is not None and m.score >= 1.0:
        return m.model, m.model.name, m.model.params_b
    size = parse_param_count(q.model)  # a size read from the name: never another model's shape
    if size:
        return None, q.model, size
    if q.params_b is None:
        raise Unresolved(
            f"'{q.model}' is not in the model data and its size is not in its name; give params_b.",
            m.suggestions,
        )
    return None, q.model, None


def plan(q: SpeedQuery, rules: SpeedRules | None = None) -> Plan:
    """Resolve the query into numbers, or raise Unresolved with a message for people."""
    rules = rules or load_speed_rules()
    mem = load_memory_rules()
    card = _card(q)
    spec, label, size = _model(q)
    params = q.params_b or size
    if params is None:
        raise Unresolved("Say which model (a name or a size such as '8B'), or give params_b.")
    notes: list[str] = []
    notes_fr: list[str] = []
    assumptions: list[str] = []
    sources: list[Source] = list(card.source_for("bandwidth_gbs")) if card else []
    if spec is None and label is not None:
        assumptions.append(
            f"'{label}' is not in the model data: a generic dense model of {params:g}B parameters."
        )
    active = q.active_params_b or (spec.active_params_b if spec else None) or params
    if active > params:
        raise Unresolved("active_params_b cannot exceed the total parameters.")
    if active < params:
        notes.append(
            f"Mixture of experts: each token reads only the {active:g}B active parameters of {params:g}B."
        )
        notes_fr.append(
            f"Mélange d'experts : chaque token ne lit que les {active:g} G paramètres actifs sur {params:g} G."
        )
    # precision
    precision = q.precision or rules.default_precision
    fmt = mem.format(precision)
    if q.bits_per_param is not None:
        bits = q.bits_per_param
        if fmt is None:
            precision = f"{bits:g} bits"
    elif fmt is None:
        names = ", ".join(f.name for f in mem.formats)
        raise Unresolved(
            f"Unknown precision '{precision}'. Known: {names}; or give bits_per_param."
        )
    else:
        bits = fmt.bits_per_param
        sources += fmt.sources[:1]
    if q.precision is None and q.bits_per_param is None:
        assumptions.append(
            f"Precision: {precision} ({bits:g} bits per weight), the usual local format (none given)."
        )
    # backend and platform
    if card is not None and card.vendor not in _PLATFORM:
        # Intel's GPUs (SYCL, Vulkan): no measurement; the CUDA fit stands in, as an upper estimate.
        platform: Platform = "cuda"
        assumptions.append(
            f"No speed measurement on {card.vendor} GPUs: the efficiency measured on NVIDIA cards "
            "is used, so the estimate is an upper one."
        )
    elif card is not None:
        platform = _PLATFORM[card.vendor]
    else:
        platform = "metal" if q.backend == "mlx" else "cuda"
    backend: Backend = q.backend or rules.default_backend
    if backend == "mlx" and platform != "metal":
        raise Unresolved("MLX runs only on Apple silicon.")
    if backend in ("exllamav2", "vllm") and platform == "metal":
        raise Unresolved(f"{backend} does not run on Apple GPUs; use llama.cpp or mlx.")
    fitted = rules.backend(backend, platform)
    if fitted is None:
        raise Unresolved(f"No fitted efficiency for {backend}.")
    if fitted.platform != platform:
        assumptions.append(
            f"No measurement of {backend} on {platform}: its {fitted.platform} efficiency is used."
        )
    # bandwidth
    bandwidth = q.bandwidth_gbs or (card.bandwidth_gbs if card else None)
    if bandwidth is None and card is not None:
        raise Unresolved(
            f"The catalog has no memory bandwidth for {card.name}; give its memory bandwidth (bandwidth_gbs)."
        )
    if bandwidth is None:
        read = active * bits / 8
        bound = REFERENCE_BANDWIDTH / read
        read_fr = f"{read:.1f}".replace(".", ",")
        raise Unresolved(
            f"Say which card, or give its memory bandwidth in GB/s: speed follows the card's memory bandwidth, "
            f"which a memory size alone does not give. Each token reads about {read:.1f} GB of "
            f"weights, so a card tops out near its bandwidth ÷ {read:.1f} GB tokens/s (at "
            f"1,000 GB/s: about {bound:.0f} tokens/s, less in practice).",
            fr="Dites quelle carte, ou donnez sa bande passante mémoire en Go/s : la vitesse suit la bande passante "
            "mémoire de la carte, qu'une taille de mémoire seule ne donne pas. Chaque token lit "
            f"environ {read_fr} Go de poids, donc une carte plafonne vers sa bande passante ÷ "
            f"{read_fr} Go tokens/s (à 1 000 Go/s : environ {bound:.0f} tokens/s, moins en "
            "pratique).",
        )
    # model shape
    layers_known = bool(spec and spec.num_layers)
    layers = (
        float(spec.num_layers)
        if spec and spec.num_layers
        else generic_layers(params, rules.generic_layers_at_7b, rules.generic_layers_exponent)
    )
    context = rules.default_context_tokens if q.context_tokens is None else q.context_tokens
    if q.context_tokens is None:
        assumptions.append(f"Context: {context} tokens already in the context (none given).")
    emb_in = out16 = 0.0
    kv_values = 0.0
    if spec is not None:
        if spec.vocab_size and spec.hidden_size:
            table = spec.vocab_size * spec.hidden_size / 1e9
            emb_in = 0.0 if spec.tied_embeddings else table
            out16 = table if (fmt is not None and fmt.keeps_embeddings_16bit) else 0.0
        kv_values = spec.kv_values_per_token(max(context, 1))
    if spec is None and context:
        assumptions.append("KV cache not counted: the model's attention shape is unknown.")
    weights, kv = bytes_per_token_gb(
        active,
        bits,
        input_embedding_b=emb_in,
        output_matrix_16bit_b=out16,
        kv_values_per_token=kv_values,
        context_tokens=context,
        kv_bits=rules.kv_cache_bits,
    )
    split: Split = q.split or (fitted.default_split if q.gpu_count > 1 else "layer")
    has_nvlink = bool(card and card.nvlink)
    interconnect: Interconnect = q.interconnect or ("nvlink" if has_nvlink else "pcie")
    if q.gpu_count > 1 and q.interconnect is None and split == "tensor":
        assumptions.append(
            f"Interconnect: {'NVLink (the card has it; without a bridge it is PCIe)' if has_nvlink else 'PCIe'}."
        )
    if q.interconnect == "nvlink" and card is not None and card.nvlink is False:
        notes.append(f"The catalog says {card.name} has no NVLink: the cards talk over PCIe.")
        notes_fr.append(
            f"Selon le catalogue, la {card.name} n'a pas de NVLink : les cartes passent par le PCIe."
        )
        interconnect = "pcie"
    return Plan(
        card=card, model=spec, model_label=label or (f"{params:g}B model"), backend=backend,
        platform=platform, fitted=fitted, params_b=params, active_params_b=active,
        precision=precision, bits_per_param=bits, bandwidth_gbs=bandwidth, layers=layers,
        layers_known=layers_known, weights_gb=weights, kv_gb=kv, context_tokens=context,
        split=split, interconnect=interconnect, notes=notes, notes_fr=notes_fr,
        assumptions=assumptions, sources=sources,
    )  # fmt: skip


def estimate_speed(q: SpeedQuery) -> SpeedEstimate:
    """Estimate how many tokens per second a model generates on a card, one request at a time:
    decode speed (memory-bound: efficiency × bandwidth ÷ bytes read per token, the active weights at
    the precision's real bits per weight plus the KV cache at the context), prefill speed (from
    tensor throughput) and time to first token. Handles mixture-of-experts models (active
    parameters only), several cards (tensor parallel over NVLink or PCIe, or a layer split) and
    partial CPU offload (offloaded layers run at system-RAM bandwidth). Backends: llama.cpp,
    exllamav2, mlc, mlx, vllm, with efficiencies fitted on published measurements. The result
    shows its formula and every input."""
    rules = load_speed_rules()
    try:
        p = plan(q, rules)
    except Unresolved as exc:
        return SpeedEstimate(
            found=False, message=str(exc), suggestions=exc.suggestions, gpu=q.gpu, model=q.model,
            model_kind=exc.model_kind,
            formula=FORMULA, formula_fr=FORMULA_FR, summary=str(exc), summary_fr=exc.fr or _fr_unresolved(str(exc)),
        )  # fmt: skip
    f = p.fitted
    n = q.gpu_count
    ram_bw = q.ram_bandwidth_gbs or rules.ram_bandwidth_gbs
    latency = rules.allreduce_latency_us[p.interconnect]
    t = _decode(p, q, rules, p.read_gb, latency, ram_bw)
    tps = t.tokens_per_s
    err = rules.typical_error_fraction
    notes, notes_fr, assumptions = list(p.notes), list(p.notes_fr), list(p.assumptions)
    sources = list(p.sources) + rules.sources["measured"]
    assumptions.append(
        f"{p.backend} on {p.platform}: efficiency {f.efficiency:.2f} of peak bandwidth and "
        f"{f.overhead_ms_per_32_layers:.2f} ms per 32 layers per token, fitted on {f.fitted_rows} "
        f"measurements on {f.gpus} GPU(s)."
    )
    if not p.layers_known:
        assumptions.append(f"Layers: about {p.layers:.0f}, from the model's size.")
    card_name = p.card.name if p.card else (q.gpu or "the card")
    if q.bandwidth_gbs is not None:
        assumptions.append(f"Memory bandwidth: {p.bandwidth_gbs:g} GB/s, as given.")
    comm_ms = None
    if n > 1:
        comm_ms = t.communication_s * 1000
        if p.split == "tensor":
            notes.append(
                f"Tensor parallel on {n} cards: each reads 1/{n} of the weights, then the cards "
                f"synchronise twice per layer over {'NVLink' if p.interconnect == 'nvlink' else 'PCIe'} "
                f"({comm_ms:.1f} ms per token). NVLink makes this cheaper than PCIe."
            )
            notes_fr.append(
                f"Parallélisme de tenseurs sur {n} cartes : chacune lit 1/{n} des poids, puis elles se "
                f"synchronisent deux fois par couche via {'NVLink' if p.interconnect == 'nvlink' else 'PCIe'} "
                f"({comm_ms:.1f} ms par token). NVLink coûte moins que le PCIe."
            )
            if p.interconnect == "nvlink":
                assumptions.append(
                    "NVLink all-reduce latency is an assumption: no measured row uses NVLink."
                )
        else:
            notes.append(
                f"Layer split on {n} cards: they take turns, so one request runs at about one card's "
                "speed; the split adds memory, not speed (use tensor parallel for speed)."
            )
            notes_fr.append(
                f"Couches réparties sur {n} cartes : elles travaillent chacune à leur tour, donc une "
                "requête va à peu près à la vitesse d'une carte ; on gagne de la mémoire, pas de la "
                "vitesse (le parallélisme de tenseurs, lui, accélère)."
            )
    share = None
    if q.offload_fraction > 0:
        share = t.ram_memory_s / t.total_s
        notes.append(
            f"Offload: {q.offload_fraction:.0%} of the layers sit in system RAM, read at about "
            f"{ram_bw * rules.cpu_efficiency:.0f} GB/s instead of {p.bandwidth_gbs * f.efficiency:.0f} GB/s "
            f"on the card: they take {share:.0%} of each token's time. That is what makes offload slow."
        )
        notes_fr.append(
            f"Déchargement : {q.offload_fraction:.0%} des couches restent en RAM système, lues à environ "
            f"{ram_bw * rules.cpu_efficiency:.0f} Go/s au lieu de {p.bandwidth_gbs * f.efficiency:.0f} Go/s "
            f"sur la carte : elles prennent {share:.0%} du temps de chaque token. C'est ce qui rend le "
            "déchargement lent."
        )
        sources += rules.sources["offload"]
        if q.ram_bandwidth_gbs is None:
            assumptions.append(
                f"System RAM: {ram_bw:g} GB/s (dual-channel DDR5-5600), {rules.cpu_efficiency:.0%} of it reached."
            )
        if p.platform == "metal":
            notes.append(
                "On a Mac the GPU already uses the system's unified memory: nothing to offload."
            )
            notes_fr.append(
                "Sur un Mac, le GPU utilise déjà la mémoire unifiée : rien à décharger."
            )
    batch = q.concurrent_requests
    weights_fit = _capacity_note(p, n, q.offload_fraction, batch, notes, notes_fr)
    # prefill
    tflops = q.fp16_tflops or (p.card.fp16_tensor_tflops if p.card else None)
    prefill = ttft = None
    prompt = q.prompt_tokens or rules.default_prompt_tokens
    # the cards in tensor parallel compute together; a layer split computes one card at a time
    together = tflops * (n if (n > 1 and p.split == "tensor") else 1) if tflops else None
    if together:
        prefill = prefill_tokens_per_s(p.active_params_b, together, rules.prefill_utilisation)
        ttft = prompt / prefill
        if p.card and q.fp16_tflops is None:
            sources += p.card.source_for("fp16_tensor_tflops")
        assumptions.append(
            f"Prefill: {rules.prefill_utilisation:.0%} of {together:g} dense FP16 tensor TFLOPS "
            "(the median of measured prompt rates, which range widely: a rough figure)."
        )
    else:
        notes.append(
            "No tensor throughput for this card in the catalog: prefill not estimated (give fp16_tflops)."
        )
        notes_fr.append(
            "Pas de débit tensoriel pour cette carte dans le catalogue : préremplissage non estimé (donnez fp16_tflops)."
        )
    batched = None
    if batch > 1:
        batched = _batched(p, q, rules, together, latency, ram_bw)
        assumptions.append(
            f"{batch} requests at once: each step reads the weights once and every request's KV "
            f"cache at {p.context_tokens} tokens, and computes 2 × active parameters FLOPs per "
            f"request{' at ' + format(rules.prefill_utilisation, '.0%') + ' of the FP16 tensor TFLOPS' if tflops else ''}; "
            "a server that batches (vLLM, SGLang, llama.cpp's parallel slots) is assumed."
        )
    inputs: dict[str, object] = {
        "bandwidth_gbs": p.bandwidth_gbs, "efficiency": f.efficiency,
        "overhead_ms_per_32_layers": f.overhead_ms_per_32_layers, "layers": round(p.layers, 1),
        "active_params_b": p.active_params_b, "bits_per_param": p.bits_per_param,
        "weights_read_gb": round(p.weights_gb, 3), "kv_cache_read_gb": round(p.kv_gb, 3),
        "context_tokens": p.context_tokens, "gpu_count": n,
    }  # fmt: skip
    if n > 1:
        inputs |= {
            "split": p.split,
            "interconnect": p.interconnect,
            "allreduce_latency_us": latency,
        }
    if batched is not None:
        inputs |= {"concurrent_requests": batch}
    if q.offload_fraction:
        inputs |= {"offload_fraction": q.offload_fraction, "ram_bandwidth_gbs": ram_bw,
                   "cpu_efficiency": rules.cpu_efficiency}  # fmt: skip
    if prefill is not None:
        inputs |= {"fp16_tflops": tflops, "prefill_utilisation": rules.prefill_utilisation}
    cards = f"{n} × {card_name}" if n > 1 else card_name
    model = p.model_label or "the model"
    summary = (
        f"About {tps:.0f} tokens/s ({tps * (1 - err):.0f}–{tps * (1 + err):.0f}) for {model} in "
        f"{p.precision} on {cards} with {p.backend}, one request at a time: each token reads "
        f"{p.read_gb:.2f} GB at {p.bandwidth_gbs:g} GB/s."
    )
    summary_fr = (
        f"Environ {tps:.0f} tokens/s ({tps * (1 - err):.0f} à {tps * (1 + err):.0f}) pour {model} en "
        f"{p.precision} sur {cards} avec {p.backend}, une requête à la fois : chaque token lit "
        f"{p.read_gb:.2f} Go à {p.bandwidth_gbs:g} Go/s."
    )
    if ttft is not None and prefill is not None:
        summary += f" Prompt: about {prefill:,.0f} tokens/s, {ttft:.1f} s for {prompt} tokens."
        summary_fr += (
            f" Prompt : environ {prefill:.0f} tokens/s, {ttft:.1f} s pour {prompt} tokens."
        )
    each: float | None = None
    total: float | None = None
    compute_bound: bool | None = None
    if batched is not None:
        each, total, compute_bound = batched
        summary += (
            f" With {batch} requests at once: about {each:.0f} tokens/s each, {total:,.0f} "
            "tokens/s in all."
        )
        summary_fr += (
            f" Avec {batch} requêtes à la fois : environ {each:.0f} tokens/s chacune, "
            f"{total:.0f} tokens/s en tout."
        )
    return SpeedEstimate(
        concurrent_requests=batch, per_request_tokens_per_s=each, total_tokens_per_s=total,
        batch_compute_bound=compute_bound,
        found=True, gpu=card_name, gpu_count=n, model=model, backend=p.backend, platform=p.platform,
        params_b=p.params_b, active_params_b=p.active_params_b, precision=p.precision,
        bits_per_param=p.bits_per_param, bandwidth_gbs=p.bandwidth_gbs, efficiency=f.efficiency,
        overhead_ms_per_token=t.overhead_s * 1000, weights_read_gb=p.weights_gb,
        kv_cache_read_gb=p.kv_gb, bytes_per_token_gb=p.read_gb, context_tokens=p.context_tokens,
        decode_tokens_per_s=tps, decode_low=tps * (1 - err), decode_high=tps * (1 + err),
        ms_per_token=t.total_s * 1000, split=p.split if n > 1 else None,
        interconnect=p.interconnect if n > 1 else None, communication_ms_per_token=comm_ms,
        offload_fraction=q.offload_fraction, ram_bandwidth_gbs=ram_bw if q.offload_fraction else None,
        offload_share_of_time=share, prefill_tokens_per_s=prefill, prompt_tokens=prompt if prefill else None,
        time_to_first_token_s=ttft, weights_fit=weights_fit, formula=FORMULA, formula_fr=FORMULA_FR, inputs=inputs, summary=summary,
        summary_fr=summary_fr, notes=notes, notes_fr=notes_fr, assumptions=assumptions,
        sources=dedupe_sources(sources),
    )  # fmt: skip


def _decode(
    p: Plan, q: SpeedQuery, rules: SpeedRules, read_gb: float, latency: float, ram_bw: float
) -> DecodeTime:
    """Time per generation step that reads `read_gb` on the plan's cards."""
    f = p.fitted
    return decode_time(
        read_gb, p.bandwidth_gbs, f.efficiency, f.overhead_ms_per_32_layers, p.layers,
        gpu_count=q.gpu_count, split=p.split, allreduce_latency_us=latency,
        layer_split_hop_ms=rules.layer_split_hop_ms, offload_fraction=q.offload_fraction,
        ram_bandwidth_gbs=ram_bw, cpu_efficiency=rules.cpu_efficiency,
    )  # fmt: skip


def _batched(
    p: Plan,
    q: SpeedQuery,
    rules: SpeedRules,
    tflops: float | None,
    latency: float,
    ram_bw: float,
) -> tuple[float, float, bool]:
    """(tokens/s of each request, tokens/s in all, compute-bound) with q.concurrent_requests
    generated together on cards computing `tflops` together: one step reads the weights once
    and each request's KV cache, and computes 2 × active parameters FLOPs per request; the
    slower of the two sets the step."""
    batch = q.concurrent_requests
    t = _decode(p, q, rules, p.weights_gb + batch * p.kv_gb, latency, ram_bw)
    step = t.total_s
    compute_bound = False
    if tflops:
        compute_s = batch / prefill_tokens_per_s(
            p.active_params_b, tflops, rules.prefill_utilisation
        )
        compute_bound = compute_s > t.memory_s
        step = max(step, compute_s + t.overhead_s + t.communication_s)
    return 1.0 / step, batch / step, compute_bound


def _capacity_note(
    p: Plan, n: int, offload: float, batch: int, notes: list[str], notes_fr: list[str]
) -> bool | None:
    """Whether the weights (less what is offloaded) fit the cards' memory, None without a card
    size; a note when they do not, or when the KV cache of the requests served together does not
    fit beside them."""
    if p.card is None or p.card.vram_gb is None:
        return None
    weights_total = p.params_b * p.bits_per_param / 8
    capacity = load_memory_rules().card_capacity_gb(p.card.vram_gb) * n
    fits = weights_total * (1 - offload) <= capacity
    kv_total = batch * p.kv_gb
    if fits and batch > 1 and weights_total * (1 - offload) + kv_total > capacity:
        room = max(capacity - weights_total * (1 - offload), 0.0)
        most = int(room / p.kv_gb) if p.kv_gb else 0
        notes.append(
            f"The KV cache of {batch} requests at {p.context_tokens} tokens ({kv_total:.1f} GB) "
            f"does not fit beside the weights: about {most} fit at once (workload_fit gives the "
            "exact count); the server queues the others."
        )
        notes_fr.append(
            f"Le cache KV de {batch} requêtes à {p.context_tokens} tokens ({kv_total:.1f} Go) ne "
            f"tient pas à côté des poids : environ {most} tiennent à la fois (workload_fit donne "
            "le compte exact) ; le serveur met les autres en file d'attente."
        )
    if not fits:
        notes.append(
            f"The weights alone ({weights_total:.1f} GB) do not fit in {p.card.vram_gb * n:g} GB of GPU memory: "
            "this speed assumes they did (see workload_fit, or set offload_fraction)."
        )
        notes_fr.append(
            f"Les poids seuls ({weights_total:.1f} Go) ne tiennent pas dans {p.card.vram_gb * n:g} Go de mémoire GPU : "
            "cette vitesse suppose qu'ils tiennent (voir workload_fit, ou réglez offload_fraction)."
        )
    return fits


def _fr_unresolved(message: str) -> str:
    if "is not a language model" in message:
        name = message.split(" is not a language model")[0]
        return (
            f"{name} n'est pas un modèle de langage : cette estimation est la vitesse de génération "
            "d'un modèle de langage (tokens/s) seulement ; elle ne donne pas de temps par image ou "
            "par vidéo. workload_fit donne sa tenue en mémoire."
        )
    if "not in the GPU catalog" in message:
        return "Carte absente du catalogue : donnez sa bande passante mémoire (bandwidth_gbs) pour l'estimer."
    if "not in the model data" in message or "Say which model" in message:
        return "Modèle inconnu : donnez sa taille (par exemple « 8B ») ou params_b."
    if "precision" in message:
        return "Précision inconnue : utilisez q4_k_m, q8_0, fp16, int4… ou donnez bits_per_param."
    return "Estimation impossible avec ces données : " + message
