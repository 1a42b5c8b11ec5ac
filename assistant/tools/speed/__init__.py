"""Speed estimate: tokens per second for a model on a card, calibrated on published measurements."""

from assistant.tools.speed.estimate import FORMULA, estimate_speed
from assistant.tools.speed.models import SpeedEstimate, SpeedQuery

__all__ = ["FORMULA", "SpeedEstimate", "SpeedQuery", "estimate_speed"]
