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


def batch_reference(name):
    """The prompts and PyTorch's batched greedy ids (left padding) that the
    generator wrote, one list per sequence."""
    lines = (DECODERS / f"{name}.batch.txt").read_text().splitlines()
    prompts = [[int(i) for i in line.split(": ", 1)[1].split(",")] for line in lines if line.startswith("prompt: ")]
    ids = [[int(i) for i in line.split(": ", 1)[1].split()] for line in lines if line.startswith("ids: ")]
    return prompts, ids


@pytest.mark.parametrize("name", ["gpt2_tiny", "llama_tiny"])
def test_batch_matches_pytorch(name, device):
    prompts, expected = batch_reference(name)
    assert len({len(p) for p in prompts}) > 1, "the prompts must differ in length"
    session = onyx.InferenceSession(DECODERS / f"{name}.onnx", device=device)
    assert session.generate(prompts, len(expected[0])) == expected
    # A list of one prompt is a batch of one: a list of lists comes back.
    assert session.generate(prompts[1:], len(expected[0])) == expected[1:]


def test_batch_end_id(device):
    prompts, expected = batch_reference("gpt2_tiny")
    session = onyx.InferenceSession(DECODERS / "gpt2_tiny.onnx", device=device)
    # The first sequence emits 19 as its fourth id and stops; the second
    # continues as it would without an end id.
    assert session.generate(prompts, 12, eos_id=19, max_seq=24) == [expected[0][:4], expected[1]]


def test_batch_errors():
    session = onyx.InferenceSession(DECODERS / "gpt2_tiny.onnx", device="ref")
    with pytest.raises(onyx.InvalidArgument, match="prompt 2 of 2: the prompt has 3 tokens, more than --max-seq=2"):
        session.generate([[5, 6], [5, 6, 7]], 3, max_seq=2)
    with pytest.raises(onyx.InvalidArgument, match="prompt 2 of 2: the prompt is empty"):
        session.generate([[5, 6], []], 3)
    with pytest.raises(onyx.InvalidArgument, match="prompt 1 of 2: prompt id 96 .at index 1. is outside"):
        session.generate([[5, 96], [1]], 3)
    with pytest.raises(onyx.InvalidArgument, match="the end id 96 is outside"):
        session.generate([[5, 6]], 3, eos_id=96)
    with pytest.raises(onyx.InvalidArgument, match="list of lists of ids"):
        session.generate([[5, 6], "x"], 3)
    with pytest.raises(onyx.InvalidArgument, match="list of lists of ids"):
        session.generate(7, 3)
