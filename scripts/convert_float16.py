#!/usr/bin/python3
"""Converts an fp32 ONNX model to float16, as models distributed in half
precision are: float initializers, Constant values and the graph's float
inputs and outputs become float16, and every op that produces floats then
computes in float16. Optionally converts .npy inputs alongside.

    /usr/bin/python3 scripts/convert_float16.py IN.onnx OUT.onnx \
        [--npy IN.npy OUT.npy]...

What ONNX requires to stay fp32 stays fp32: the `scales` and `roi` of
Resize and Upsample (float only in ONNX). A value of such an input that the
model computes from converted values gets a Cast back to float. Casts to
float become Casts to float16, and ConstantOfShape, EyeLike and the random
ops that make floats make float16. Subgraphs (If, Loop, Scan) are converted
the same way. Prints how many tensors it converted.
"""

import argparse

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT, HALF = TensorProto.FLOAT, TensorProto.FLOAT16

# (op type, input index) pairs ONNX types as tensor(float) only.
FLOAT_ONLY_INPUTS = {("Resize", 1), ("Resize", 2), ("Upsample", 1)}
# Ops whose `dtype` or `to` attribute names the type they produce.
DTYPE_ATTRS = {"Cast": "to", "EyeLike": "dtype", "RandomNormal": "dtype",
               "RandomUniform": "dtype", "RandomNormalLike": "dtype",
               "RandomUniformLike": "dtype", "Multinomial": "dtype",
               "Bernoulli": "dtype"}


def to_half(tensor):
    if tensor.data_type != FLOAT:
        return tensor, False
    half = numpy_helper.from_array(
        numpy_helper.to_array(tensor).astype(np.float16), tensor.name)
    return half, True


def convert_type(type_proto):
    """Rewrites a tensor's element type in a ValueInfo's type in place."""
    kind = type_proto.WhichOneof("value")
    if kind == "tensor_type" and type_proto.tensor_type.elem_type == FLOAT:
        type_proto.tensor_type.elem_type = HALF
        return True
    if kind == "sequence_type":
        return convert_type(type_proto.sequence_type.elem_type)
    if kind == "optional_type":
        return convert_type(type_proto.optional_type.elem_type)
    return False


class Converter:
    def __init__(self):
        self.count = 0
        self.fresh = 0

    def name(self, base):
        self.fresh += 1
        return f"{base}_fp32_{self.fresh}"

    def graph(self, graph, keep_float):
        """Converts `graph` in place; `keep_float` are names of fp32
        initializers of enclosing graphs (still fp32 in this one)."""
        float_only = set()
        for node in graph.node:
            for i, name in enumerate(node.input):
                if (node.op_type, i) in FLOAT_ONLY_INPUTS and name:
                    float_only.add(name)
        keep = set(keep_float)
        inits = []
        for t in graph.initializer:
            if t.name in float_only:
                keep.add(t.name)
                inits.append(t)
                continue
            half, changed = to_half(t)
            self.count += changed
            inits.append(half)
        del graph.initializer[:]
        graph.initializer.extend(inits)
        for vi in list(graph.input) + list(graph.output):
            if vi.name not in keep:
                self.count += convert_type(vi.type)
        # Intermediate types are rederived by whoever reads the model.
        del graph.value_info[:]

        nodes = []
        for node in graph.node:
            if node.op_type == "Constant":
                for attr in node.attribute:
                    if attr.name == "value" and attr.t.data_type == FLOAT:
                        if node.output[0] in float_only:
                            keep.add(node.output[0])
                            continue
                        half, _ = to_half(attr.t)
                        attr.t.CopyFrom(half)
                        self.count += 1
                    elif attr.name == "value_float":
                        if node.output[0] not in float_only:
                            value = attr.f
                            node.ClearField("attribute")
                            node.attribute.extend([helper.make_attribute(
                                "value", numpy_helper.from_array(
                                    np.array(value, np.float16)))])
                            self.count += 1
                            break
                    elif attr.name == "value_floats":
                        if node.output[0] not in float_only:
                            values = list(attr.floats)
                            node.ClearField("attribute")
                            node.attribute.extend([helper.make_attribute(
                                "value", numpy_helper.from_array(
                                    np.array(values, np.float16)))])
                            self.count += 1
                            break
            elif node.op_type == "ConstantOfShape":
                for attr in node.attribute:
                    if attr.name == "value" and attr.t.data_type == FLOAT:
                        half, _ = to_half(attr.t)
                        attr.t.CopyFrom(half)
            elif node.op_type in DTYPE_ATTRS:
                for attr in node.attribute:
                    if attr.name == DTYPE_ATTRS[node.op_type] and attr.i == FLOAT:
                        attr.i = HALF
            for attr in node.attribute:
                if attr.type == onnx.AttributeProto.GRAPH:
                    self.graph(attr.g, keep)
                elif attr.type == onnx.AttributeProto.GRAPHS:
                    for g in attr.graphs:
                        self.graph(g, keep)
            # A float-only input computed in the model: cast it back.
            for i, name in enumerate(node.input):
                if ((node.op_type, i) in FLOAT_ONLY_INPUTS and name
                        and name not in keep):
                    cast = self.name(name)
                    nodes.append(helper.make_node("Cast", [name], [cast],
                                                  to=FLOAT))
                    node.input[i] = cast
            nodes.append(node)
        del graph.node[:]
        graph.node.extend(nodes)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--npy", nargs=2, action="append", default=[],
                    metavar=("IN", "OUT"),
                    help="also write the float16 copy of a .npy input")
    a = ap.parse_args()

    model = onnx.load(a.input)
    converter = Converter()
    converter.graph(model.graph, set())
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as e:
        # Debian's ONNX checker refuses models newer than itself; those are
        # left for the importer to judge.
        if "ir_version is higher" not in str(e):
            raise
    onnx.save(model, a.output)
    for src, dst in a.npy:
        array = np.load(src)
        np.save(dst, array.astype(np.float16)
                if array.dtype == np.float32 else array)
    print(f"{a.output}: {converter.count} tensors converted to float16")


if __name__ == "__main__":
    main()
