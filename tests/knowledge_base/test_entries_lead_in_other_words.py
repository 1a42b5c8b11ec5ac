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
    ],
)
def test_the_entry_opens_the_answer(question: str, opening: str) -> None:
    assert ask(question).text.startswith(opening)
