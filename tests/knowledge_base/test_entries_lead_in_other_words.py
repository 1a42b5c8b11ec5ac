"""An entry answers its question asked in words it does not hold: the answer opens with the
entry's own first sentence, in the asker's language."""

from __future__ import annotations

import pytest

from assistant import ask


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        (
            "Why does model.half() make my ResNet slower on a T4 than plain float32?",
            "Usually the measurement: GPU work runs asynchronously",
        ),
        (
            "Pourquoi mon modèle tourne plus lentement en fp16 qu'en fp32 sur ma T4 ?",
            "En général à cause de la mesure : le travail du GPU est asynchrone",
        ),
        (
            "free colab kicked me out while I was running a gradio web UI, it said disallowed "
            "code. why?",
            "It means Colab judged the session to be a use that its free tier does not allow:",
        ),
        (
            "on my Xavier NX, python3 -c 'import onnxruntime' just says Illegal instruction (core "
            "dumped) since I pip installed a new package",
            "Usually numpy, not PyTorch:",
        ),
        (
            "a salesman told us the local AI learns from our contracts every time we use it, so "
            "client data ends up inside the model, and that RAG over 2,000 files needs a huge "
            "server. true?",
            "No to both. Running a model (inference) only reads its weights",
        ),
        (
            "Un vendeur dit que le modèle apprend de nos documents à chaque question et que le "
            "RAG demande un serveur énorme. C'est vrai ?",
            "Non, dans les deux cas. Faire tourner un modèle (l'inférence) ne fait que lire",
        ),
        (
            "j'ai ça quand je lance le workflow : NotImplementedError: The operator "
            "'aten::grid_sampler_3d' is not currently implemented for the MPS device.",
            "Cela signifie que le modèle utilise une opération que le backend GPU Apple",
        ),
        (
            "when i scp the same yolo11s.engine to our older orin NX (jetpack 5.1.2) i get: [TRT] "
            "[E] 1: Error Code 1: Serialization (Serialization assertion stdVersionRead == "
            "serializationVersion failed.Version tag does not match.) both are orin so why??",
            "Rebuild it on the target, as a rule",
        ),
        (
            "LoadLibrary failed with error 126 when trying to load onnxruntime_providers_cuda.dll "
            "with cuda 12.4 and cudnn 9",
            "It depends on the package's build: ONNX Runtime built with CUDA 11.8",
        ),
        (
            'the console says "Device: cuda:0 AMD Radeon RX 9070 : native" and '
            "torch.cuda.is_available() is True. did it install nvidia stuff by mistake?? i dont "
            "have nvidia",
            "No: PyTorch's ROCm build deliberately reuses the `torch.cuda` interface",
        ),
        (
            "nvidia-smi says 100% GPU util and max power but only a third of the VRAM is used, is "
            "my GPU really fully used?",
            "Not necessarily: GPU-Util in `nvidia-smi` is the share of the last sample period",
        ),
        (
            "started the rocm pytorch image with docker run -it rocm/pytorch and torch says "
            "RuntimeError: No HIP GPUs are available, but rocm-smi on the host lists both cards",
            "Because the container was started without the GPU's device files",
        ),
        (
            "la démo de mon modèle de segmentation plante : RuntimeError: Not compiled with GPU "
            "support, pourtant torch.cuda.is_available() renvoie True",
            "Cela veut dire que l'extension C++/CUDA propre à la bibliothèque",
        ),
    ],
)
def test_the_entry_opens_the_answer(question: str, opening: str) -> None:
    assert ask(question).text.startswith(opening)
