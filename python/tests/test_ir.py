"""The compiler from Python: parse and print modules, walk their operations,
run pass pipelines (the lowering for a target included), import ONNX models;
malformed IR and bad pipelines raise onyx.Error subclasses with the located
diagnostic text."""

import numpy as np
import pytest

import onyx
from conftest import EXAMPLES

ADD_RELU = (EXAMPLES / "add_relu.mlir").read_text()


def test_round_trip():
    module = onyx.ir.Module.parse(ADD_RELU)
    text = str(module)
    assert str(onyx.ir.Module.parse(text)) == text
    generic = module.get_asm(generic=True)
    assert '"func.func"' in generic
    assert str(onyx.ir.Module.parse(generic)) == text


def test_walk():
    module = onyx.ir.Module.parse(ADD_RELU)
    (func,) = module.operations
    assert func.name == "func.func"
    assert func.attributes["sym_name"].value == "main"
    assert str(func.attributes["function_type"]) == (
        "(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>"
    )
    assert [op.name for op in module.walk()] == ["func.func", "onnx.Add", "onnx.Relu", "func.return"]
    (block,) = func.regions[0].blocks
    x, y = block.arguments
    add, relu, ret = block.operations
    assert [v.type for v in add.operands] == [x.type, y.type]
    assert add.operands[0].owner is None  # a block argument
    assert relu.operands[0].owner == add
    (result,) = relu.results
    assert str(result.type) == "tensor<2x3xf32>"
    assert result.type.shape == [2, 3]
    assert str(result.type.element_type) == "f32"
    assert ret.operands[0].owner == relu


def test_attributes():
    module = onyx.ir.Module.parse(
        """
        func.func @main(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
          %c = onnx.Constant dense<[1.5, 2.5]> : tensor<2xf32>
          %0 = "foo.op"(%x) {axis = -1 : i64, tag = "t", flags = [1, 2], f = 2.5 : f32, u, ty = f32} : (tensor<2x?xf32>) -> tensor<2x?xf32>
          return %0 : tensor<2x?xf32>
        }""",
        allow_unregistered_dialects=True,
    )
    ops = {op.name: op for op in module.walk()}
    constant = ops["onnx.Constant"].attributes["value"].value
    assert constant.dtype == np.float32 and constant.tolist() == [1.5, 2.5]
    attributes = {name: attr.value for name, attr in ops["foo.op"].attributes.items()}
    assert attributes["axis"] == -1
    assert attributes["tag"] == "t"
    assert attributes["flags"] == [1, 2]
    assert attributes["f"] == 2.5
    assert attributes["u"] is True
    assert str(attributes["ty"]) == "f32"
    assert str(ops["foo.op"].attributes["axis"]) == "-1 : i64"
    assert ops["foo.op"].results[0].type.shape == [2, None]


def test_pipeline():
    module = onyx.ir.Module.parse(
        """
        func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
          %0 = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
          %1 = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
          %2 = "onnx.Add"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
          return %2 : tensor<2xf32>
        }"""
    )
    onyx.passes.run(module, "builtin.module(canonicalize,cse)")
    names = [op.name for op in module.walk()]
    assert names.count("onnx.Relu") == 1


def test_lower_for_a_target():
    module = onyx.ir.Module.parse(ADD_RELU)
    onyx.passes.lower(module, target="lavapipe")
    names = {op.name for op in module.walk()}
    assert "gpu.dispatch" in names and not any(n.startswith("onnx.") for n in names)
    assert "gpu.target" in str(module)
    again = onyx.ir.Module.parse(ADD_RELU)
    onyx.passes.run(again, "builtin.module(canonicalize,lower)", target="vulkan")
    assert "gpu.dispatch" in {op.name for op in again.walk()}


def test_import_onnx():
    module = onyx.import_onnx(EXAMPLES / "tiny_mlp.onnx", bind_dims={"batch": 2})
    names = [op.name for op in module.walk()]
    assert names.count("onnx.Gemm") == 2 and "onnx.Softmax" in names
    (func,) = module.operations
    (block,) = func.regions[0].blocks
    assert str(block.arguments[0].type) == "tensor<2x16xf32>"
    onyx.passes.lower(module, target="lavapipe")
    symbolic = onyx.import_onnx((EXAMPLES / "tiny_mlp.onnx").read_bytes())
    assert "tensor<?x16xf32>" in str(symbolic)


def test_malformed_ir_raises():
    with pytest.raises(onyx.IRError) as error:
        onyx.ir.Module.parse("func.func @main() {\n  %0 = \"onnx.Relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n")
    message = str(error.value)
    assert message.startswith("<string>:2:")
    assert "error:" in message and "^" in message
    with pytest.raises(onyx.IRError, match=r"<string>:1:\d+: error:") as error:
        onyx.ir.Module.parse("\x00garbage \xff")
    assert "garbage" in str(error.value).splitlines()[1]  # the line, NUL and all
    with pytest.raises(onyx.IRError, match="unregistered"):
        onyx.ir.Module.parse('"foo.bar"() : () -> ()')
    module = onyx.ir.Module.parse('"foo.bar"() : () -> ()', allow_unregistered_dialects=True)
    assert "foo.bar" in str(module)


def test_verifier_errors_raise():
    with pytest.raises(onyx.IRError, match="<string>:3:"):
        onyx.ir.Module.parse(
            """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
              %0 = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
              return %x, %0 : tensor<2xf32>, tensor<2xf32>
            }"""
        )


def test_bad_pipelines_raise():
    module = onyx.ir.Module.parse(ADD_RELU)
    with pytest.raises(onyx.InvalidArgument, match="<pass-pipeline>:1:16: error: 'nope' does not refer"):
        onyx.passes.run(module, "builtin.module(nope)")
    with pytest.raises(onyx.InvalidArgument, match="target"):
        onyx.passes.lower(module, target="not-a-gpu")


def test_bad_onnx_import_raises(tmp_path):
    with pytest.raises(onyx.ModelError, match="not a valid ONNX model"):
        onyx.import_onnx(b"\x08\x07garbage")
    with pytest.raises(onyx.ModelError, match="cannot read the file"):
        onyx.import_onnx(tmp_path / "missing.onnx")


def test_stale_handles_raise():
    module = onyx.ir.Module.parse(ADD_RELU)
    relu = [op for op in module.walk() if op.name == "onnx.Relu"][0]
    onyx.passes.lower(module, target="lavapipe")
    with pytest.raises(onyx.IRError, match="predates a pass run"):
        relu.name
    assert "gpu.dispatch" in {op.name for op in module.walk()}
