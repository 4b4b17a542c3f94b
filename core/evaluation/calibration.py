"""Whether probabilities mean what they say: log-loss, expected calibration error, and temperature scaling
(Guo et al. 2017: one scalar T fitted on held-out logits, probabilities = softmax(logits / T))."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ECE_BINS = 15
T_RANGE = (0.05, 20.0)


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Row-wise softmax of logits / temperature (float64)."""
    z = np.asarray(logits, dtype=np.float64) / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def log_loss(probs: np.ndarray, targets: Sequence[int] | np.ndarray) -> float:
    """Mean negative log-likelihood of the true classes (probabilities clipped at 1e-12)."""
    probs, targets = np.asarray(probs, dtype=np.float64), np.asarray(targets, dtype=np.int64)
    return float(-np.log(np.clip(probs[np.arange(len(targets)), targets], 1e-12, 1.0)).mean())


def expected_calibration_error(probs: np.ndarray, targets: Sequence[int] | np.ndarray, bins: int = ECE_BINS) -> float:
    """ECE of the top-1 probability: the papers-weighted gap between confidence and accuracy over equal-width bins."""
    probs, targets = np.asarray(probs, dtype=np.float64), np.asarray(targets, dtype=np.int64)
    if len(targets) == 0:
        return float("nan")
    confidence = probs.max(axis=1)
    right = probs.argmax(axis=1) == targets
    which = np.minimum((confidence * bins).astype(int), bins - 1)
    gap = 0.0
    for b in range(bins):
        inside = which == b
        if inside.any():
            gap += inside.sum() * abs(confidence[inside].mean() - right[inside].mean())
    return float(gap / len(targets))


def fit_temperature(logits: np.ndarray, targets: Sequence[int] | np.ndarray) -> float:
    """The temperature minimising the log-loss of softmax(logits / T) on these (held-out) papers; 1.0 without any."""
    from scipy.optimize import minimize_scalar

    logits, targets = np.asarray(logits, dtype=np.float64), np.asarray(targets, dtype=np.int64)
    if len(targets) == 0 or logits.shape[1] < 2:
        return 1.0
    found = minimize_scalar(lambda log_t: log_loss(softmax(logits, float(np.exp(log_t))), targets),
                            bounds=tuple(np.log(T_RANGE)), method="bounded", options={"xatol": 1e-4})
    return float(np.exp(found.x))


def calibration_figures(logits: np.ndarray, targets: Sequence[int] | np.ndarray,
                        temperature: float) -> dict[str, float]:
    """Log-loss and ECE of these papers before (T = 1) and after temperature scaling."""
    raw, scaled = softmax(logits), softmax(logits, temperature)
    return {"nll_raw": log_loss(raw, targets), "nll": log_loss(scaled, targets),
            "ece_raw": expected_calibration_error(raw, targets), "ece": expected_calibration_error(scaled, targets)}
