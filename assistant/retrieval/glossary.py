"""An English <-> French glossary of GPU, cloud and money terms, used to expand queries.

The corpus is French and many questions are English: "rent a GPU by the hour" should reach
"la location à l'heure". Each entry groups the English and French ways of saying one thing; a query
that contains any of them is expanded with all the others. Matching works on stemmed, accent-free
terms, so inflections ("renting", "louée") match too.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from assistant.retrieval.lexical import raw_tokens, stem

# (English phrases, French phrases); phrases separated by commas.
GLOSSARY: tuple[tuple[str, str], ...] = (
    # renting, buying, money
    ("rent, renting, rental, hire, lease, rented", "louer, location, loué, louée, locations"),
    ("per hour, hourly, by the hour, an hour, hours", "à l'heure, par heure, horaire, heures, /h"),
    ("per second, by the second", "à la seconde"),
    ("per month, monthly, a month", "par mois, mensuel, /mois"),
    ("per week, weekly, a week", "par semaine, hebdomadaire"),
    ("buy, buying, purchase, bought, own", "acheter, achat, achète, acquérir, achetez"),
    ("price, prices, pricing, rate, rates, how much", "prix, tarif, tarification, tarifs, combien"),
    (
        "cost, costs, how much, expense, spend, spending",
        "coût, coûte, coûts, dépenser, dépense, facture",
    ),
    (
        "cheap, cheapest, inexpensive, low cost, affordable",
        "moins chers, pas cher, bon marché, économique",
    ),
    ("expensive, costly, pricey", "cher, chers, coûteux, coûteuse, coût élevé"),
    (
        "budget, limited budget, tight budget, on a budget",
        "budget, budget contraint, budget minimal",
    ),
    ("money, euros, dollars, eur, usd", "euros, dollars, €, $"),
    ("bill, billing, invoice, charged, billed, pay", "facture, facturé, facturés, payer, payez"),
    (
        "free, for free, no cost, free tier, zero cost",
        "gratuit, gratuite, gratuitement, niveau gratuit, 0 €",
    ),
    ("used, second-hand, second hand, refurbished, pre-owned", "occasion, d'occasion"),
    ("new, brand new", "neuf, neuve, neuves"),
    (
        "value for money, price-performance, bang for the buck, best value",
        "rapport qualité-prix, rapport capacité/€, coûts-performances",
    ),
    (
        "investment, upfront cost, capital, return on investment",
        "investissement, capital, retour sur investissement, coûts initiaux",
    ),
    ("total cost of ownership, tco", "coût total de possession"),
    ("obsolescence, outdated", "obsolescence, ancienne"),
    ("savings, save money, cheaper", "économie, moins chères, divise la facture"),
    # cloud and providers
    (
        "cloud, cloud provider, cloud providers, provider, providers",
        "cloud, fournisseur, fournisseurs, fournisseurs cloud",
    ),
    ("marketplace, marketplaces, peer-to-peer", "places de marché, particuliers"),
    ("hyperscaler, hyperscalers, big cloud, aws, azure, gcp", "hyperscalers, AWS, GCP, Azure"),
    (
        "spot, spot instance, preemptible, interruptible, spot instances",
        "instance spot, instances spot, spot",
    ),
    ("on-demand, dedicated, reserved, dedicated instance", "dédiée, instance dédiée, à la demande"),
    (
        "interrupted, interruption, preempted, evicted, killed",
        "interrompue, interrompues, interruption, préavis",
    ),
    (
        "checkpoint, checkpointing, save, backup, resume",
        "sauvegarde, sauvegarde fréquente, reprise automatique",
    ),
    ("instance, instances, virtual machine, vm, machine", "instance, instances, machine"),
    ("storage, disk, persistent storage, volume", "stockage, disque, stockage persistant"),
    (
        "forgot, forgotten, left running, idle, turn off, shut down, switch off",
        "oubliée, éteignez, éteinte, à l'arrêt",
    ),
    ("weekend, week-end", "week-end"),
    ("network, egress, data transfer, bandwidth charges", "réseau, transfert de données"),
    ("serverless, pay per use, pay-as-you-go", "serverless, pay-per-use, à la seconde d'exécution"),
    ("cold start, startup time", "démarrage à froid"),
    ("quota, quotas, limits, usage limits", "quotas, quota"),
    ("disconnect, disconnection, disconnected, session timeout", "déconnexions, déconnexion"),
    ("session, sessions, runtime", "sessions, session"),
    ("predictable, reliable allocation, guaranteed", "prévisible, attribution"),
    ("allocation, assigned, allocated", "attribution, attribuée"),
    ("credits, free credits, trial, sign-up credits", "crédits, crédits d'essai, inscription"),
    (
        "student, researcher, academic, university, research",
        "étudiant, chercheur, académiques, programmes académiques",
    ),
    (
        "supercomputer, national computing centre, hpc centre",
        "centres de calcul nationaux, Jean Zay",
    ),
    ("reliability, reliable, unreliable", "fiabilité, fiable"),
    ("preinstalled, ready to use", "préinstallé"),
    # hardware
    ("gpu, graphics card, video card, card, cards", "gpu, carte graphique, carte, cartes"),
    ("consumer, gaming, geforce, desktop", "grand public, consumer, GeForce"),
    ("datacenter, data center, data-centre, server gpu", "centre de données, DC"),
    ("workstation", "station de travail"),
    ("memory, vram, video memory, gpu memory", "mémoire, VRAM, mémoire vidéo"),
    ("shared memory, smem, scratchpad", "mémoire partagée, threadgroup memory, mém. partagée"),
    ("unified memory", "mémoire unifiée"),
    ("bandwidth, memory bandwidth", "bande passante, bande passante mémoire"),
    ("tensor cores, tensor core", "tensor cores, cœurs tensor, cœurs Tensor"),
    (
        "power, power draw, wattage, consumption, tdp, watts, energy",
        "consommation, puissance, alimentation, W, énergétique",
    ),
    ("electricity, power bill, energy cost", "électricité, consommation, alimentation"),
    ("cooling, heat, thermal", "refroidissement"),
    ("power supply, psu", "alimentation"),
    (
        "speed, fast, faster, performance, throughput",
        "vitesse, rapide, performance, puissance brute",
    ),
    ("slow, slower", "lent, lente"),
    ("flops, tflops, compute power, raw compute", "FLOPS, TFLOPS, puissance brute, calcul"),
    ("double precision, fp64", "FP64, FP64 rapide"),
    ("half precision, fp16", "FP16"),
    ("latency, response time", "latence"),
    ("utilization, usage, gpu usage", "utilisation, usage"),
    ("monitoring, monitor", "monitoring, surveiller, suivi"),
    ("bottleneck, bottlenecks", "goulets, goulet"),
    ("batch size, batch", "taille de lot, batch"),
    ("offloading, offload, swap", "offloading, swap"),
    ("multi-gpu, nvlink, gpu interconnect", "NVLink"),
    ("compute capability, sm version, cc", "compute capability"),
    ("architecture, generation", "architecture, génération"),
    ("feature, features, instructions, support", "fonctionnalités, instruction, support"),
    (
        "which gpu do i have, check my gpu, check the card, verify the gpu, identify the gpu",
        "vérifier la carte, vérifier ce qu'on a, nvidia-smi, carte attribuée",
    ),
    (
        "laptop, mac, macbook, apple, m1, m2, m3, m-series",
        "Mac, Apple Silicon, puce M-series, macOS",
    ),
    ("amd, radeon, rocm", "AMD, ROCm"),
    ("nvidia, cuda", "NVIDIA, CUDA"),
    ("driver, drivers", "drivers, pilote"),
    # learning and workloads
    (
        "learn, learning, beginner, getting started, study, practice",
        "apprendre, apprentissage, bases, débutant",
    ),
    ("gpu programming, cuda programming, write kernels", "programmation GPU, noyau, noyaux"),
    ("kernel, kernels", "noyau, noyaux"),
    ("profiling, profiler, profile, nsight", "profilage, profiler, Nsight"),
    ("megakernel, megakernels, persistent kernel", "megakernels, megakernel, noyau persistant"),
    (
        "training, train, fine-tuning, fine-tune, finetune",
        "entraînement, entraîner, entraînements, entraîné",
    ),
    (
        "long training run, long job, multi-hour training",
        "entraînement long, travail long, plusieurs heures",
    ),
    ("inference, serving, deploy a model", "inférence, déploiement"),
    (
        "image generation, stable diffusion, sdxl, flux, text-to-image",
        "génération d'images, FLUX, génération images",
    ),
    ("video generation", "génération vidéo"),
    ("generative ai, genai, gen ai", "IA générative"),
    ("deep learning, machine learning, ai", "apprentissage profond, IA"),
    ("model, models, large models, llm", "modèle, modèles, modèles volumineux, grands modèles"),
    ("lora, qlora, adapter", "LoRA"),
    ("production, daily use, professional use", "production, usage quotidien, usage professionnel"),
    ("occasional, sporadic, peaks, burst", "sporadiques, pics, occasionnels, débordement"),
    (
        "heavy use, intensive, daily, every day, all the time",
        "intensif, quotidien, intensive, tous les jours, chaque jour",
    ),
    ("framework, frameworks, library, libraries", "frameworks, bibliothèques"),
    ("compatibility, compatible, works with", "compatibilité, compatible"),
    ("ecosystem, tooling, community tools", "écosystème, outillage communautaire"),
    ("docker, container, containers, image", "Docker, containers, images Docker"),
    ("ci, continuous integration, pipeline", "pipelines CI, CI"),
    ("migration, migrate, move to the cloud", "migration, migré, passage du local au cloud"),
    ("local, on-premise, at home, own hardware", "local, matériel local, machines locales"),
    (
        "recommend, recommendation, best choice, best option, should i",
        "recommandation, meilleur choix, meilleure option, recommandé",
    ),
    ("strategy, plan", "stratégie, plan"),
    (
        "minimum, minimal, requirement, requirements, what hardware do i need",
        "minimal, matériel minimal, ce qu'il faut",
    ),
    ("recent hardware, latest hardware, cutting-edge", "matériel récent, matériel de pointe"),
    ("old card, older card", "carte ancienne"),
    ("summary, takeaways, key points, tl;dr", "résumé, à retenir"),
    ("chapter, part, section", "chapitre, partie, parties"),
    ("testimonial, user feedback, experience", "avis, témoignage"),
)


@dataclass(frozen=True)
class Expansion:
    """What the glossary adds to a query."""

    matched: tuple[str, ...]  # the phrases found in the query
    added: tuple[str, ...]  # the other phrases of the same entries
    english: tuple[str, ...] = ()  # the English phrases of the entries touched
    rows: tuple[int, ...] = ()  # the glossary rows touched (indices into GLOSSARY)

    def as_text(self) -> str:
        """The added terms, comma-separated."""
        return ", ".join(self.added)


def french_rows() -> tuple[str, ...]:
    """Each glossary row's French phrases as one text, in GLOSSARY order (what the dense query
    adds for the rows a question touches: the documents are French)."""
    return tuple(french for _, french in GLOSSARY)


@lru_cache(maxsize=1)
def glossary_version() -> str:
    """Changes whenever the glossary does: indexed passages carry its terms, so re-embed them."""
    return hashlib.sha256(repr(GLOSSARY).encode("utf-8")).hexdigest()[:12]


def _terms(text: str) -> tuple[str, ...]:
    """Stemmed words in order, common words kept: "how much" must not shrink to "much"."""
    return tuple(stem(w) for w in raw_tokens(text))


def _phrases(cell: str) -> list[str]:
    return [p.strip() for p in cell.split(",") if p.strip()]


@lru_cache(maxsize=1)
def _entries() -> tuple[tuple[tuple[str, tuple[str, ...], bool], ...], ...]:
    """Each entry as (phrase, its terms, is English); phrases without words are dropped."""
    entries = []
    for english, french in GLOSSARY:
        pairs = []
        for phrase, is_english in (
            *((p, True) for p in _phrases(english)),
            *((p, False) for p in _phrases(french)),
        ):
            terms = _terms(phrase)
            if terms:
                pairs.append((phrase, terms, is_english))
        entries.append(tuple(pairs))
    return tuple(entries)


@lru_cache(maxsize=1)
def _phrase_lengths() -> frozenset[int]:
    return frozenset(len(terms) for entry in _entries() for _, terms, _ in entry)


def _runs(sequence: tuple[str, ...]) -> set[tuple[str, ...]]:
    """Every run of consecutive terms as long as some phrase: a phrase occurs in the text when
    its terms are one of them (one set lookup per phrase, not a scan of the text)."""
    return {sequence[i : i + n] for n in _phrase_lengths() for i in range(len(sequence) - n + 1)}


def expand(query: str) -> Expansion:
    """The glossary entries a query touches, and what they add."""
    runs = _runs(_terms(query))
    matched: list[str] = []
    added: list[str] = []
    english: list[str] = []
    rows: list[int] = []
    for row, entry in enumerate(_entries()):
        hits = [phrase for phrase, terms, _ in entry if terms in runs]
        if not hits:
            continue
        rows.append(row)
        matched.extend(h for h in hits if h not in matched)
        added.extend(p for p, _, _ in entry if p not in hits and p not in added)
        english.extend(p for p, _, is_en in entry if is_en and p not in english)
    return Expansion(tuple(matched), tuple(added), tuple(english), tuple(rows))
