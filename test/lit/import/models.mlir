// Real models: PyTorch exports at opsets 13 and 17 (test/models), and
// ONNX backend tests of old opsets (the PyTorch converter's opset-6 models).

// RUN: onyx-opt %models/mlp.onnx | FileCheck %s --check-prefix=MLP
// RUN: onyx-opt %models/mlp.opset17.onnx | FileCheck %s --check-prefix=MLP
// RUN: onyx-opt %models/cnn_small.onnx | FileCheck %s --check-prefix=CNN
// RUN: onyx-opt %models/cnn_small.opset17.onnx | FileCheck %s --check-prefix=CNN
// RUN: onyx-opt %models/transformer_block.onnx --bind-dims=seq=16 | FileCheck %s --check-prefixes=GPT,GPT13
// RUN: onyx-opt %models/transformer_block.opset17.onnx --bind-dims=seq=16 | FileCheck %s --check-prefixes=GPT,GPT17
// RUN: onyx-opt %models/transformer_block.onnx --bind-dims=seq=5 | FileCheck %s --check-prefix=SEQ5
// RUN: onyx-opt %models/transformer_block.onnx --canonicalize --cse | FileCheck %s --check-prefix=UNBOUND

// MLP-LABEL: func.func @main(%arg0: tensor<4x16xf32> {onnx.name = "x"}) -> (tensor<4x10xf32> {onnx.name = "logits"})
// MLP-COUNT-3: "onnx.Gemm"
// MLP-NOT: "onnx.Gemm"
// MLP: return

// CNN-LABEL: func.func @main(%arg0: tensor<1x3x16x16xf32> {onnx.name = "image"}) -> (tensor<1x10xf32> {onnx.name = "logits"})
// CNN: "onnx.Conv"{{.*}} -> tensor<1x8x16x16xf32>
// CNN: "onnx.BatchNormalization"{{.*}} -> tensor<1x8x16x16xf32>
// CNN: "onnx.Relu"
// CNN: "onnx.MaxPool"{{.*}} -> tensor<1x8x8x8xf32>
// CNN: "onnx.Conv"{{.*}} -> tensor<1x16x8x8xf32>
// CNN: "onnx.GlobalAveragePool"{{.*}} -> tensor<1x16x1x1xf32>
// CNN: "onnx.Flatten"{{.*}} -> tensor<1x16xf32>
// CNN: "onnx.Gemm"{{.*}} -> tensor<1x10xf32>

// The shape computations (Shape -> Gather -> Unsqueeze -> Concat ->
// Reshape, the causal mask's Slice and Cast) fold away once `seq` is bound.
// GPT-LABEL: func.func @main(%arg0: tensor<1x16x16xf32> {onnx.name = "x"}) -> (tensor<1x16x16xf32> {onnx.name = "y"})
// GPT-NOT: "onnx.Shape"
// GPT-NOT: "onnx.Gather"
// GPT-NOT: "onnx.Concat"
// GPT-NOT: "onnx.Unsqueeze"
// GPT-NOT: "onnx.Cast"
// GPT13: "onnx.ReduceMean"
// GPT17: "onnx.LayerNormalization"
// GPT: "onnx.Reshape"{{.*}} -> tensor<1x16x2x8xf32>
// GPT: "onnx.Where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x1x16x16xi1>
// GPT: "onnx.Softmax"
// GPT: "onnx.Reshape"{{.*}} -> tensor<1x16x16xf32>
// GPT: "onnx.Erf"
// GPT: return {{.*}} : tensor<1x16x16xf32>

// SEQ5: func.func @main(%arg0: tensor<1x5x16xf32> {onnx.name = "x"}) -> (tensor<1x5x16xf32> {onnx.name = "y"})

// Unbound, seq stays `?` and only what depends on it is dynamic: the
// shape computations fold to one Shape -> Gather -> Unsqueeze of the
// sequence length, concatenated with the static sizes.
// UNBOUND-LABEL: func.func @main(%arg0: tensor<1x?x16xf32> {onnx.name = "x"}) -> (tensor<1x?x16xf32> {onnx.name = "y"})
// UNBOUND-COUNT-1: "onnx.Shape"
// UNBOUND-NOT: "onnx.Shape"
// UNBOUND: [[SEQ:%.+]] = "onnx.Unsqueeze"
// UNBOUND: [[SHAPE4:%.+]] = "onnx.Concat"(%{{.+}}, [[SEQ]], %{{.+}}, %{{.+}}) {axis = 0 : si64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
// UNBOUND: "onnx.Reshape"(%{{.+}}, [[SHAPE4]]) : (tensor<1x?x16xf32>, tensor<4xi64>) -> tensor<1x?x2x8xf32>
// UNBOUND: "onnx.Attention"{{.*}} -> tensor<1x2x?x8xf32>
// UNBOUND: return {{.*}} : tensor<1x?x16xf32>

// Old opsets: Split-2 without sizes, LogSoftmax-6 along the last axis,
// PRelu-6 with a slope per channel, BatchNormalization-6 with is_test,
// Slice-1 and Squeeze-1 with attributes.
// RUN: onyx-opt %libonnx_testdata/pytorch-converted/test_GLU_dim/model.onnx | FileCheck %s --check-prefix=GLU
// GLU: "onnx.Split"(%arg0) {axis = 1 : si64, num_outputs = 2 : si64} : (tensor<5x6x7xf32>) -> (tensor<5x3x7xf32>, tensor<5x3x7xf32>)
// RUN: onyx-opt %libonnx_testdata/pytorch-converted/test_log_softmax_dim3/model.onnx | FileCheck %s --check-prefix=LOGSOFTMAX
// LOGSOFTMAX: "onnx.LogSoftmax"(%arg0) : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
// RUN: onyx-opt %libonnx_testdata/pytorch-converted/test_PReLU_2d_multiparam/model.onnx | FileCheck %s --check-prefix=PRELU
// PRELU: [[SLOPE:%.+]] = onnx.Constant dense<2.500000e-01> : tensor<3x1x1xf32>
// PRELU: "onnx.PRelu"(%arg0, [[SLOPE]])
// RUN: onyx-opt %libonnx_testdata/pytorch-converted/test_BatchNorm2d_eval/model.onnx | FileCheck %s --check-prefix=BN
// BN: "onnx.BatchNormalization"({{.*}}) : (tensor<2x3x6x6xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x6x6xf32>
// RUN: onyx-opt %libonnx_testdata/pytorch-operator/test_operator_index/model.onnx | FileCheck %s --check-prefix=INDEX
// INDEX: "onnx.Slice"
// INDEX: "onnx.Squeeze"({{.*}}) : (tensor<1x1xf32>, tensor<1xi64>) -> tensor<1xf32>
