//===- TargetScope.cpp - The ops and element types onyx must support ------===//

#include "test/conformance/TargetScope.h"

#include "llvm/ADT/STLExtras.h"

using namespace onyx;

bool onyx::conformance::isTargetOp(StringRef op) {
  static constexpr StringRef kOps[] = {
      // Elementwise unary, without and with attributes.
      "Abs", "Neg", "Exp", "Log", "Sqrt", "Reciprocal", "Relu", "Sigmoid",
      "Tanh", "Erf", "Sin", "Cos", "Floor", "Ceil", "Round", "Sign", "Not",
      "Softplus", "HardSwish", "Identity", "LeakyRelu", "Elu", "Selu", "IsNaN",
      "IsInf", "HardSigmoid", "Clip", "Cast",
      // Broadcasting binary and variadic.
      "Add", "Sub", "Mul", "Div", "Pow", "Mod", "Max", "Min", "Equal",
      "Greater", "Less", "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor",
      "PRelu", "Where",
      // Contractions, windows, normalizations.
      "MatMul", "Gemm", "Conv", "ConvTranspose", "MaxPool", "AveragePool",
      "GlobalAveragePool", "GlobalMaxPool", "BatchNormalization",
      "LayerNormalization", "InstanceNormalization", "Softmax", "LogSoftmax",
      // Reductions.
      "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ArgMax", "ArgMin",
      "CumSum", "OneHot",
      // Data movement and shapes.
      "Reshape", "Transpose", "Flatten", "Squeeze", "Unsqueeze", "Concat",
      "Split", "Slice", "Gather", "Expand", "Tile", "Pad", "Resize", "Upsample",
      "DepthToSpace", "SpaceToDepth", "Shape", "Size", "ConstantOfShape",
      "Range", "Trilu", "ScatterND", "GatherND", "GatherElements",
      "ScatterElements", "Dropout", "Constant", "Gelu",
      // Data-dependent result sizes (issue 10).
      "NonZero", "TopK", "Unique", "Compress",
      // Control flow with subgraphs.
      "If", "Loop", "Scan",
      // Recurrent layers.
      "RNN", "GRU", "LSTM",
      // Contractions and group statistics.
      "Einsum", "GroupNormalization",
      // Linear quantization.
      "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear",
      "MatMulInteger", "ConvInteger", "QLinearMatMul", "QLinearConv"};
  return llvm::is_contained(kOps, op);
}

bool onyx::conformance::isTargetElemType(StringRef type) {
  static constexpr StringRef kTypes[] = {"float", "double", "float16", "int64",
                                         "int32", "int8",   "uint8",   "bool"};
  return llvm::is_contained(kTypes, type);
}
