#!/usr/bin/env python3
"""Exports the model families people take from Hugging Face transformers, as
their ONNX exporters write them, with tiny random configs.

Each family is built from a config (no download: random weights under a fixed
seed), wrapped so that its forward takes tensors and returns its main output
(logits or the last hidden state), and exported with each exporter this
PyTorch has: the TorchScript one (`dynamo=False`, opset 17) and the dynamo
one (`dynamo=True`, opset 18). For each export the script runs ONNX Runtime
on fixed inputs and writes, under OUT/NAME.EXPORTER/:

  model.onnx                  the exported model (external data folded in)
  input_K.npy, output_0.npy   the inputs and ONNX Runtime's output
  ops.txt                     `domain op count`, one line each

and OUT/summary.json with every family's status (exported, the error if not).
It needs transformers, onnxruntime and onnxscript (for the dynamo exporter):
the GPU machine's image has them; Debian's packages do not.

  python3 scripts/export_hf_models.py --out DIR [--only gpt2,bert]
"""
import argparse
import collections
import json
import os
import sys
import traceback

import numpy as np
import torch

SEQ = 8
VOCAB = 128


def text_inputs(batch=1, seq=SEQ):
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, VOCAB, (batch, seq), generator=g)
    mask = torch.ones(batch, seq, dtype=torch.int64)
    return {"input_ids": ids, "attention_mask": mask}


def image_inputs(size=32, channels=3):
    g = torch.Generator().manual_seed(1)
    return {"pixel_values": torch.randn(1, channels, size, size, generator=g)}


class Wrapper(torch.nn.Module):
    """Calls the model with keyword tensors and returns its first output."""

    def __init__(self, model, names, extra):
        super().__init__()
        self.model = model
        self.names = names
        self.extra = extra

    def forward(self, x0, x1=None):
        args = (x0,) if x1 is None else (x0, x1)
        out = self.model(**dict(zip(self.names, args)), **self.extra,
                         return_dict=True)
        for key in ("logits", "last_hidden_state", "pooler_output"):
            if key in out and out[key] is not None:
                return out[key]
        return next(v for v in out.values() if torch.is_tensor(v))


def families():
    """name -> (builder, inputs, dynamic axes of the inputs, extra kwargs)."""
    import transformers as tf
    text_axes = {"input_ids": {0: "batch", 1: "seq"},
                 "attention_mask": {0: "batch", 1: "seq"}}
    image_axes = {"pixel_values": {0: "batch"}}
    small = dict(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                 num_attention_heads=4, vocab_size=VOCAB,
                 max_position_embeddings=64)
    lm = {"use_cache": False}
    f = {}
    f["gpt2"] = (lambda: tf.GPT2LMHeadModel(tf.GPT2Config(
        n_embd=32, n_layer=2, n_head=4, vocab_size=VOCAB, n_positions=64)),
        text_inputs, text_axes, lm)
    f["llama"] = (lambda: tf.LlamaForCausalLM(tf.LlamaConfig(
        num_key_value_heads=2, **small)), text_inputs, text_axes, lm)
    f["qwen2"] = (lambda: tf.Qwen2ForCausalLM(tf.Qwen2Config(
        num_key_value_heads=2, **small)), text_inputs, text_axes, lm)
    f["gemma3"] = (lambda: tf.Gemma3ForCausalLM(tf.Gemma3TextConfig(
        num_key_value_heads=2, head_dim=8, sliding_window=4, **small)),
        text_inputs, text_axes, lm)
    f["phi3"] = (lambda: tf.Phi3ForCausalLM(tf.Phi3Config(
        num_key_value_heads=2, pad_token_id=0, **small)),
        text_inputs, text_axes, lm)
    f["mistral"] = (lambda: tf.MistralForCausalLM(tf.MistralConfig(
        num_key_value_heads=2, **small)), text_inputs, text_axes, lm)
    f["bert"] = (lambda: tf.BertModel(tf.BertConfig(**small)),
                 text_inputs, text_axes, {})
    f["distilbert"] = (lambda: tf.DistilBertModel(tf.DistilBertConfig(
        dim=32, hidden_dim=64, n_layers=2, n_heads=4, vocab_size=VOCAB,
        max_position_embeddings=64)), text_inputs, text_axes, {})
    f["vit"] = (lambda: tf.ViTForImageClassification(tf.ViTConfig(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, image_size=32, patch_size=8, num_labels=10)),
        image_inputs, image_axes, {})
    f["resnet"] = (lambda: tf.ResNetForImageClassification(tf.ResNetConfig(
        embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
        num_labels=10)), image_inputs, image_axes, {})
    f["convnext"] = (lambda: tf.ConvNextForImageClassification(
        tf.ConvNextConfig(num_stages=2, hidden_sizes=[16, 32], depths=[1, 1],
                          num_labels=10, image_size=32)),
        image_inputs, image_axes, {})
    f["segformer"] = (lambda: tf.SegformerForSemanticSegmentation(
        tf.SegformerConfig(num_encoder_blocks=2, depths=[1, 1],
                           sr_ratios=[2, 1], hidden_sizes=[16, 32],
                           num_attention_heads=[1, 2], decoder_hidden_size=32,
                           patch_sizes=[7, 3], strides=[4, 2],
                           mlp_ratios=[2, 2], num_labels=4)),
        image_inputs, image_axes, {})

    def whisper():
        m = tf.WhisperModel(tf.WhisperConfig(
            d_model=32, encoder_layers=2, decoder_layers=2,
            encoder_attention_heads=4, decoder_attention_heads=4,
            encoder_ffn_dim=64, decoder_ffn_dim=64, num_mel_bins=16,
            max_source_positions=32, vocab_size=VOCAB, pad_token_id=0,
            bos_token_id=1, eos_token_id=2, decoder_start_token_id=1))
        return m.get_encoder()

    def audio_inputs():
        g = torch.Generator().manual_seed(1)
        return {"input_features": torch.randn(1, 16, 64, generator=g)}
    f["whisper_encoder"] = (whisper, audio_inputs,
                            {"input_features": {0: "batch"}}, {})

    def wav2vec2_inputs():
        g = torch.Generator().manual_seed(1)
        return {"input_values": torch.randn(1, 800, generator=g)}
    f["wav2vec2"] = (lambda: tf.Wav2Vec2Model(tf.Wav2Vec2Config(
        hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, conv_dim=(16, 16), conv_stride=(5, 2),
        conv_kernel=(10, 3), num_conv_pos_embeddings=16,
        num_conv_pos_embedding_groups=4)), wav2vec2_inputs,
        {"input_values": {0: "batch", 1: "samples"}}, {})
    f["t5_encoder"] = (lambda: tf.T5EncoderModel(tf.T5Config(
        d_model=32, d_ff=64, num_layers=2, num_heads=4, d_kv=8,
        vocab_size=VOCAB)), text_inputs, text_axes, {})
    return f


def export_one(name, exporter, build, make_inputs, axes, extra, out):
    torch.manual_seed(0)
    model = build().eval()
    inputs = make_inputs()
    names = list(inputs)
    wrapper = Wrapper(model, names, extra).eval()
    args = tuple(inputs[n] for n in names)
    folder = os.path.join(out, f"{name}.{exporter}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "model.onnx")
    kwargs = dict(input_names=names, output_names=["output_0"],
                  dynamic_axes=axes)
    static_fallback = False
    if exporter == "torchscript":
        torch.onnx.export(wrapper, args, path, opset_version=17,
                          dynamo=False, **kwargs)
    else:
        # The dynamo exporter takes torch.export's dynamic shapes, keyed by
        # the wrapper's parameter names; a model whose code guards on a size
        # is exported with static shapes instead (noted in the summary).
        dims = {f"x{k}": {d: torch.export.Dim.DYNAMIC for d in axes[n]}
                for k, n in enumerate(names)}
        try:
            torch.onnx.export(wrapper, args, path, opset_version=18,
                              dynamo=True, external_data=False,
                              input_names=names, output_names=["output_0"],
                              dynamic_shapes=dims)
        except Exception:  # noqa: BLE001 - retried with static shapes
            static_fallback = True
            torch.onnx.export(wrapper, args, path, opset_version=18,
                              dynamo=True, external_data=False,
                              input_names=names, output_names=["output_0"])
    import onnx
    m = onnx.load(path)
    strip_provenance(m)
    onnx.save(m, path)  # folds any external data into the one file
    with torch.no_grad():
        expected_torch = wrapper(*args).numpy()
    import onnxruntime as ort
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {i.name: inputs[i.name].numpy() for i in sess.get_inputs()}
    (result,) = sess.run(["output_0"], feeds)
    for k, (n, v) in enumerate(feeds.items()):
        np.save(os.path.join(folder, f"input_{k}.npy"), v)
    np.save(os.path.join(folder, "output_0.npy"), result)
    counts = collections.Counter(
        (node.domain or "ai.onnx", node.op_type) for node in walk(m.graph))
    with open(os.path.join(folder, "ops.txt"), "w") as f:
        for (domain, op), n in sorted(counts.items()):
            f.write(f"{domain} {op} {n}\n")
    return {
        "inputs": [n for n in feeds],
        "bytes": os.path.getsize(path),
        "opset": {o.domain or "ai.onnx": o.version for o in m.opset_import},
        "max_abs_diff_vs_torch": float(np.max(np.abs(result -
                                                      expected_torch))),
        "ops": {f"{d}.{o}" if d != "ai.onnx" else o: n
                for (d, o), n in sorted(counts.items())},
        "functions": [f.name for f in m.functions],
        "static_shapes": static_fallback,
    }


def quantize_nbits(out, key, block_size, symmetric):
    """ONNX Runtime's own 4-bit quantizer over an export's MatMul weights:
    MatMulNBits as GenAI-made models carry it, with ONNX Runtime's output."""
    import onnx
    from onnxruntime.quantization.matmul_nbits_quantizer import \
        MatMulNBitsQuantizer
    import onnxruntime as ort
    src = os.path.join(out, key)
    folder = f"{src}.nbits{block_size}{'s' if symmetric else 'a'}"
    os.makedirs(folder, exist_ok=True)
    m = onnx.load(os.path.join(src, "model.onnx"))
    q = MatMulNBitsQuantizer(m, block_size=block_size,
                             is_symmetric=symmetric)
    q.process()
    path = os.path.join(folder, "model.onnx")
    q.model.save_model_to_file(path, use_external_data_format=False)
    sess = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {}
    for k, i in enumerate(sess.get_inputs()):
        feeds[i.name] = np.load(os.path.join(src, f"input_{k}.npy"))
        np.save(os.path.join(folder, f"input_{k}.npy"), feeds[i.name])
    (result,) = sess.run(["output_0"], feeds)
    np.save(os.path.join(folder, "output_0.npy"), result)
    counts = collections.Counter((n.domain or "ai.onnx", n.op_type)
                                 for n in walk(onnx.load(path).graph))
    with open(os.path.join(folder, "ops.txt"), "w") as f:
        for (domain, op), n in sorted(counts.items()):
            f.write(f"{domain} {op} {n}\n")
    return {"bytes": os.path.getsize(path),
            "ops": {f"{d}.{o}": n for (d, o), n in sorted(counts.items())}}


def strip_provenance(model):
    """Drops what the exporter records of where the model came from (doc
    strings, and the dynamo exporter's per-node stack traces naming this
    machine's source paths): the test data carries no local paths."""
    def strip_graph(graph):
        graph.doc_string = ""
        for node in graph.node:
            node.doc_string = ""
            del node.metadata_props[:]
            for attr in node.attribute:
                if attr.HasField("g"):
                    strip_graph(attr.g)
                for g in attr.graphs:
                    strip_graph(g)
        for value in list(graph.value_info) + list(graph.input) + \
                list(graph.output):
            del value.metadata_props[:]
    strip_graph(model.graph)
    for function in model.functions:
        for node in function.node:
            node.doc_string = ""
            del node.metadata_props[:]
    del model.metadata_props[:]
    model.doc_string = ""


def walk(graph):
    for node in graph.node:
        yield node
        for attr in node.attribute:
            if attr.g is not None and attr.g.node:
                yield from walk(attr.g)
            for g in attr.graphs:
                yield from walk(g)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True)
    p.add_argument("--only", default="")
    p.add_argument("--exporters", default="torchscript,dynamo")
    p.add_argument("--nbits", default="llama.torchscript,gpt2.torchscript",
                   help="exports whose MatMul weights ONNX Runtime's "
                   "quantizer also turns into 4-bit MatMulNBits")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    import transformers
    summary = {"torch": torch.__version__,
               "transformers": transformers.__version__, "models": {}}
    chosen = set(filter(None, a.only.split(",")))
    for name, (build, inputs, axes, extra) in families().items():
        if chosen and name not in chosen:
            continue
        for exporter in a.exporters.split(","):
            key = f"{name}.{exporter}"
            try:
                summary["models"][key] = export_one(
                    name, exporter, build, inputs, axes, extra, a.out)
                print(f"{key}: ok", flush=True)
            except Exception as e:  # noqa: BLE001 - reported per model
                summary["models"][key] = {
                    "error": f"{type(e).__name__}: {e}"[:2000]}
                print(f"{key}: FAILED {type(e).__name__}: {str(e)[:300]}",
                      flush=True)
                traceback.print_exc(limit=3)
    for key in [k for k in summary["models"] if k in a.nbits.split(",")]:
        for block_size, symmetric in ((32, True), (16, False), (128, False)):
            try:
                r = quantize_nbits(a.out, key, block_size, symmetric)
                summary["models"][f"{key}.nbits{block_size}"] = r
                print(f"{key} nbits {block_size}: ok", flush=True)
            except Exception as e:  # noqa: BLE001 - reported per model
                print(f"{key} nbits {block_size}: FAILED {e}"[:400],
                      flush=True)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
