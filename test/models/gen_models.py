#!/usr/bin/python3
"""Makes the small PyTorch exports that the end-to-end tests run.

Each model is exported with torch.onnx.export (the TorchScript exporter) at
opsets 13 and 17, with a fixed-seed input and PyTorch's float32 output for
it. The models are scaled down versions of what people export (an MLP, a
CNN with BatchNorm, a GPT-2-style block with a dynamic sequence axis, a
small U-Net), small
enough to commit: the files this writes are the repository's test data, so
the tests need nothing beside the checkout.

Run by hand with Debian's python3-torch, python3-onnx and python3-numpy:
    /usr/bin/python3 test/models/gen_models.py [OUTPUT_DIR [NAME...]]
and commit what changed. OUTPUT_DIR defaults to this script's folder; names
limit it to those models.

Writes, per model NAME:
    NAME.onnx, NAME.opset17.onnx   the exports at opsets 13 and 17
    NAME.input_0.npy               the input
    NAME.output_0.npy              PyTorch's output for it
    NAME.case1.*.npy               another size on the dynamic axes, if any
"""

import os
import sys

import numpy as np
import torch
from torch import nn


def randn(seed, *shape):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def make_nontrivial(module, seed):
    """Fresh modules have zero biases, unit norms and zero running means,
    which hide mistakes in how a kernel applies them: perturb them all."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, (nn.Linear, nn.Conv2d)) and m.bias is not None:
                m.bias.copy_(torch.randn(m.bias.shape, generator=g) * 0.1)
            if isinstance(m, (nn.BatchNorm2d, nn.LayerNorm)):
                m.weight.copy_(1 + torch.randn(m.weight.shape, generator=g) * 0.1)
                m.bias.copy_(torch.randn(m.bias.shape, generator=g) * 0.1)
            if isinstance(m, nn.BatchNorm2d):
                n = m.num_features
                m.running_mean.copy_(torch.randn(n, generator=g) * 0.1)
                m.running_var.copy_(0.5 + torch.rand(n, generator=g))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(),
                                 nn.Linear(32, 32), nn.ReLU(),
                                 nn.Linear(32, 10))

    def forward(self, x):
        return self.net(x)


class CNNSmall(nn.Module):
    def __init__(self):
        super().__init__()

        def stage(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1),
                                 nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.MaxPool2d(2))

        self.features = nn.Sequential(stage(3, 8), stage(8, 16))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.features(x)), 1))


class UNetSmall(nn.Module):
    """A two-level U-Net as segmentation models write it: the encoder's
    features skip to the decoder, which upsamples once with a transposed
    convolution and once with bilinear interpolation (Resize)."""

    def __init__(self):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1),
                                 nn.BatchNorm2d(cout), nn.ReLU())

        self.enc1, self.enc2, self.mid = block(3, 8), block(8, 16), block(16, 16)
        self.pool = nn.MaxPool2d(2)
        self.up2 = nn.Upsample(scale_factor=2, mode="bilinear",
                               align_corners=False)
        self.dec2 = block(32, 8)
        self.up1 = nn.ConvTranspose2d(8, 8, 2, stride=2)
        self.dec1 = block(16, 8)
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(self.pool(e1))
        m = self.mid(self.pool(e2))
        d2 = self.dec2(torch.cat([self.up2(m), e2], 1))
        d1 = self.dec1(torch.cat([self.up1(d2), e1], 1))
        return torch.sigmoid(self.head(d1))


class Attention(nn.Module):
    """Causal self-attention as GPT-2 writes it: one projection for q, k and
    v, a lower-triangular mask buffer sliced to the sequence length."""

    def __init__(self, d, heads, max_len):
        super().__init__()
        self.heads = heads
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.register_buffer(
            "mask", torch.tril(torch.ones(max_len, max_len)).view(
                1, 1, max_len, max_len))

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.c_attn(x).split(d, dim=2)

        def heads(y):
            return y.view(b, t, self.heads, d // self.heads).transpose(1, 2)

        q, k, v = heads(q), heads(k), heads(v)
        scores = (q @ k.transpose(-2, -1)) / (d // self.heads) ** 0.5
        scores = scores.masked_fill(self.mask[:, :, :t, :t] == 0,
                                    float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).contiguous().view(b, t, d))


class TransformerBlock(nn.Module):
    def __init__(self, d=16, heads=2, max_len=32):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = Attention(d, heads, max_len)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(),
                                 nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


# name: (module, seed, input name, output name, input, other-size inputs,
#        dynamic axes, export options)
MODELS = {
    "mlp": (MLP, 11, "x", "logits", randn(101, 4, 16), [], None, {}),
    # Training mode PRESERVE keeps the BatchNormalization nodes, which the
    # exporter would otherwise fold into the Convs: the tests check that
    # onyx folds them.
    "cnn_small": (CNNSmall, 12, "image", "logits", randn(102, 1, 3, 16, 16),
                  [], None,
                  {"training": torch.onnx.TrainingMode.PRESERVE}),
    "transformer_block": (TransformerBlock, 13, "x", "y", randn(103, 1, 16, 16),
                          [randn(104, 1, 7, 16)], {1: "seq"}, {}),
    "unet_small": (UNetSmall, 14, "image", "mask", randn(105, 1, 3, 32, 32),
                   [], None, {}),
}


def save(path, tensor):
    np.save(path, tensor.detach().numpy().astype(np.float32))


def generate(out_dir, names):
    for name, (cls, seed, in_name, out_name, x, others, dynamic,
               options) in MODELS.items():
        if names and name not in names:
            continue
        torch.manual_seed(seed)
        model = cls()
        make_nontrivial(model, seed + 1000)
        model.eval()
        axes = None
        if dynamic:
            axes = {in_name: dynamic, out_name: dynamic}
        for opset, suffix in ((13, ""), (17, ".opset17")):
            torch.onnx.export(model, (x,),
                              os.path.join(out_dir, name + suffix + ".onnx"),
                              input_names=[in_name], output_names=[out_name],
                              dynamic_axes=axes, opset_version=opset,
                              do_constant_folding=True, **options)
        with torch.no_grad():
            save(os.path.join(out_dir, name + ".input_0.npy"), x)
            save(os.path.join(out_dir, name + ".output_0.npy"), model(x))
            for i, other in enumerate(others, 1):
                prefix = os.path.join(out_dir, f"{name}.case{i}")
                save(prefix + ".input_0.npy", other)
                save(prefix + ".output_0.npy", model(other))


if __name__ == "__main__":
    # [OUTPUT_DIR [NAME...]]: only the models named, if any.
    generate(sys.argv[1] if len(sys.argv) > 1 else
             os.path.dirname(os.path.abspath(__file__)), sys.argv[2:])
