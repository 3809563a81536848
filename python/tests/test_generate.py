"""InferenceSession.generate over the decoders examples/decoders/gen_decoders.py
exported (GPT-2 and Llama style, random weights): PyTorch's greedy ids on both
backends, the cache bound, and errors for models and prompts that do not fit."""

import pytest

import onyx
from conftest import EXAMPLES

DECODERS = EXAMPLES / "decoders"


def greedy(name):
    """The prompt and PyTorch's greedy ids that the generator wrote."""
    lines = dict(line.split(": ", 1) for line in (DECODERS / f"{name}.greedy.txt").read_text().splitlines())
    return [int(i) for i in lines["prompt"].split(",")], [int(i) for i in lines["ids"].split()]


@pytest.mark.parametrize("name", ["gpt2_tiny", "llama_tiny"])
def test_greedy_matches_pytorch(name, device):
    prompt, expected = greedy(name)
    session = onyx.InferenceSession(DECODERS / f"{name}.onnx", device=device)
    assert session.generate(prompt, len(expected)) == expected


def test_max_seq_and_sampling():
    session = onyx.InferenceSession(DECODERS / "gpt2_tiny.onnx", device="ref")
    # 3 prompt positions and 2 fed back: the third new token ends it.
    assert session.generate([5, 6, 7], 10, max_seq=5) == [82, 49, 49]
    sampled = session.generate([5, 6, 7], 4, temperature=0.8, top_k=5, seed=3)
    assert len(sampled) == 4
    assert session.generate([5, 6, 7], 4, temperature=0.8, top_k=5, seed=3) == sampled


def test_generate_errors():
    session = onyx.InferenceSession(DECODERS / "gpt2_tiny.onnx", device="ref")
    with pytest.raises(onyx.InvalidArgument, match="top_p"):
        session.generate([1, 2], 3, top_p=0)
    with pytest.raises(onyx.InvalidArgument):
        session.generate([1, 100000], 3)
    with pytest.raises(onyx.InvalidArgument):
        session.generate([], 3)
    not_a_decoder = onyx.InferenceSession(EXAMPLES / "tiny_mlp.onnx", device="ref")
    with pytest.raises(onyx.InvalidArgument, match="tiny_mlp.onnx: "):
        not_a_decoder.generate([1, 2], 3)
