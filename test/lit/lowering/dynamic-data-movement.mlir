// RUN: onyx-opt %s --split-input-file --target=lavapipe --onnx-static-shapes --onnx-fuse-elementwise --convert-onnx-to-gpu -verify-diagnostics | FileCheck %s

// Data movement with dims known only at run time: one kernel body serves
// static and dynamic dims, every size a run-time dim enters is a push
// constant computed on the host. (Static dims keep the literal kernels of
// data-movement.mlir.)

// A KV-cache Concat along a `?` axis: each input whose length is known only
// at run time is a dispatch of its own (an empty past skips its dispatch);
// rows of 4 floats still move as uvec4, the output's offset and row count
// are push constants.
// CHECK-LABEL: gpu.kernel @concat(read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32, ui32)
// CHECK-SAME: uniform Sizes { uint s0; uint s1; uint s2; } pc;
// CHECK-SAME: buffer B0 { uvec4 d[]; } b0;
// CHECK-SAME: if (i < pc.s0) {
// CHECK-SAME: uint c1 = ct % pc.s1; ct /= pc.s1;
// CHECK-SAME: b1.d[c0 * pc.s2 + c1] = b0.d[i];
// CHECK: gpu.kernel @concat_1(read, write)
// CHECK-SAME: b1.d[pc.s2 + c0 * pc.s3 + c1] = b0.d[i];
// CHECK: %[[PAST:.+]] = gpu.dim %arg0[2]
// CHECK: %[[NEW:.+]] = gpu.dim %arg1[2]
// CHECK: %[[TOTAL:.+]] = gpu.addi %[[PAST]], %[[NEW]]
// CHECK: %[[OUT:.+]] = gpu.alloc(%[[TOTAL]]) : !gpu.view<1x2x?x4xf32>
// CHECK: %[[N0:.+]] = gpu.muli %{{.+}}, %[[PAST]]
// CHECK: gpu.dispatch @concat[%{{.+}}, 1, 1](%{{.+}}, %[[OUT]]) push(%[[N0]], %[[PAST]], %[[TOTAL]])
// CHECK: %[[N1:.+]] = gpu.muli %{{.+}}, %[[NEW]]
// CHECK: gpu.dispatch @concat_1[%{{.+}}, 1, 1](%{{.+}}, %[[OUT]]) push(%[[N1]], %[[NEW]], %[[PAST]], %[[TOTAL]])
func.func @main(%past: tensor<1x2x?x4xf32>, %new: tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32> {
  %kv = "onnx.Concat"(%past, %new) {axis = 2 : si64} : (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32>
  return %kv : tensor<1x2x?x4xf32>
}

// -----

// An embedding lookup with a run-time number of ids: the table's sizes stay
// literals, the counts are push constants.
// CHECK-LABEL: gpu.kernel @gather(read, read, write) workgroup_size(256, 1, 1) push_constants(ui32, ui32)
// CHECK-SAME: if (i >= pc.s0) return;
// CHECK-SAME: uint t = (i / 2u) % pc.s1;
// CHECK-SAME: if (k < 0) k += 50;
// CHECK-SAME: y.d[i] = x.d[(o * 50u + uint(k)) * 2u + r];
// CHECK: %[[A:.+]] = gpu.dim %arg1[0]
// CHECK: %[[B:.+]] = gpu.dim %arg1[1]
// CHECK: gpu.alloc(%[[A]], %[[B]]) : !gpu.view<?x?x8xf32>
// CHECK: gpu.dispatch @gather
func.func @main(%table: tensor<50x8xf32>, %ids: tensor<?x?xi64>) -> tensor<?x?x8xf32> {
  %emb = "onnx.Gather"(%table, %ids) {axis = 0 : si64} : (tensor<50x8xf32>, tensor<?x?xi64>) -> tensor<?x?x8xf32>
  return %emb : tensor<?x?x8xf32>
}

// -----

// Gather along a `?` axis: negative ids wrap by the run-time size.
// CHECK-LABEL: gpu.kernel @gather
// CHECK-SAME: if (k < 0) k += int(pc.s
// CHECK-SAME: k < int(pc.s
func.func @main(%x: tensor<2x?x4xf16>, %ids: tensor<3xi32>) -> tensor<2x3x4xf16> {
  %0 = "onnx.Gather"(%x, %ids) {axis = 1 : si64} : (tensor<2x?x4xf16>, tensor<3xi32>) -> tensor<2x3x4xf16>
  return %0 : tensor<2x3x4xf16>
}

// -----

// Constant starts and ends of a `?` axis are clamped to the dim on the host,
// as ONNX specifies: x[1:-1] starts at min(1, n) and takes
// max(max(n - 1, 0) - min(1, n), 0) rows.
// CHECK-LABEL: gpu.kernel @slice(read, write)
// CHECK-SAME: b1.d[i] = b0.d[pc.s1 + i];
// CHECK: %[[N:.+]] = gpu.dim %arg0[0]
// CHECK: %[[START:.+]] = gpu.mini %{{.+}}, %[[N]]
// CHECK: %[[LESS:.+]] = gpu.subi %[[N]], %{{.+}}
// CHECK: %[[END:.+]] = gpu.maxi %[[LESS]], %{{.+}}
// CHECK: %[[DIFF:.+]] = gpu.subi %[[END]], %[[START]]
// CHECK: %[[ROWS:.+]] = gpu.maxi %[[DIFF]], %{{.+}}
// CHECK: gpu.alloc(%[[ROWS]]) : !gpu.view<?x8xf32>
func.func @main(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %s = "onnx.Constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "onnx.Constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %s, %e, %a) : (tensor<?x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// A Split of a static axis of a tensor with `?` dims: one kernel writes all
// parts (none can be empty unless the input is).
// CHECK-LABEL: gpu.kernel @split(read, write, write, write)
// CHECK-SAME: push_constants(ui32
// CHECK: gpu.dispatch @split
// CHECK-NOT: gpu.dispatch
func.func @main(%x: tensor<1x?x48xf32>) -> (tensor<1x?x16xf32>, tensor<1x?x16xf32>, tensor<1x?x16xf32>) {
  %0:3 = "onnx.Split"(%x) {axis = 2 : si64, num_outputs = 3 : si64} : (tensor<1x?x48xf32>) -> (tensor<1x?x16xf32>, tensor<1x?x16xf32>, tensor<1x?x16xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x?x16xf32>, tensor<1x?x16xf32>, tensor<1x?x16xf32>
}

// -----

func.func @main(%x: tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  // expected-error @+1 {{splits axis 0, whose size is known only at run time, without split sizes; GPU kernels need a static shape along it}}
  %0:2 = "onnx.Split"(%x) {axis = 0 : si64, num_outputs = 2 : si64} : (tensor<?x4xf32>) -> (tensor<?x4xf32>, tensor<?x4xf32>)
  return %0#0, %0#1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// Starts given at run time (an argument: an element the host program
// extracts) may have either sign: the host adds the dim to a negative one,
// then clamps to [0, n].
// CHECK-LABEL: gpu.kernel @slice(read, write)
// CHECK-SAME: b1.d[i] = b0.d[pc.s1 + i];
// CHECK: %[[N:.+]] = gpu.dim %arg0[0]
// CHECK: %[[S:.+]] = gpu.extract %arg1[0]
// CHECK: %[[LO:.+]] = gpu.maxi %[[S]], %{{.+}}
// CHECK: %[[C:.+]] = gpu.mini %[[LO]], %{{.+}}
// CHECK: %[[NEG:.+]] = gpu.lti %[[C]], %{{.+}}
// CHECK: %[[FROM_END:.+]] = gpu.addi %[[N]], %[[C]]
// CHECK: gpu.select %[[NEG]], %[[FROM_END]], %[[C]]
// CHECK: gpu.dispatch @slice
func.func @main(%x: tensor<?x8xf32>, %s: tensor<1xi64>) -> tensor<?x8xf32> {
  %e = "onnx.Constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %s, %e) : (tensor<?x8xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

// Pad in reflect mode along a `?` axis: the period 2 (n - 1) and the shift
// that makes coordinates non-negative come from the host.
// CHECK-LABEL: gpu.kernel @pad_reflect(read, write)
// CHECK-SAME: int j0 = int(c0) - 2;
// CHECK-SAME: j0 = (j0 + int(pc.s[[SHIFT:[0-9]+]])) % int(pc.s[[PERIOD:[0-9]+]]);
// CHECK-SAME: j0 = j0 < int(pc.s{{[0-9]+}}) ? j0 : int(pc.s[[PERIOD]]) - j0;
// CHECK-SAME: j1 = (j1 + 6) % 6;
// CHECK: %[[N:.+]] = gpu.dim %arg0[0]
// CHECK: %[[ROWS:.+]] = gpu.addi %{{.+}}, %[[N]]
// CHECK: gpu.alloc(%[[ROWS]]) : !gpu.view<?x7xf32>
// CHECK: gpu.ceildivi %{{.+}}, %{{.+}}
// CHECK: gpu.dispatch @pad_reflect
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x7xf32> {
  %pads = "onnx.Constant"() {value = dense<[2, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "onnx.Pad"(%x, %pads) {mode = "reflect"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x7xf32>
  return %0 : tensor<?x7xf32>
}

// -----

// GatherElements and Trilu: coordinates and bounds from push constants.
// CHECK-LABEL: gpu.kernel @gather_elements(read, read, write)
// CHECK-SAME: uint c1 = ct % 4u; ct /= 4u;
// CHECK-SAME: if (k < 0) k += int(pc.s{{[0-9]+}});
// CHECK: gpu.kernel @triu(read, write)
// CHECK-SAME: int row = int((i / 4u) % pc.s{{[0-9]+}});
func.func @main(%x: tensor<?x4xf32>, %i: tensor<?x4xi64>) -> (tensor<?x4xf32>, tensor<?x4xf32>) {
  %0 = "onnx.GatherElements"(%x, %i) {axis = 0 : si64} : (tensor<?x4xf32>, tensor<?x4xi64>) -> tensor<?x4xf32>
  %1 = "onnx.Trilu"(%x) {upper = 1 : si64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0, %1 : tensor<?x4xf32>, tensor<?x4xf32>
}

// -----

// Pads and repeats given at run time: a negative one is an error of the run.
// CHECK-LABEL: func.func @main
// CHECK: %[[P:.+]] = gpu.extract %arg1[0]
// CHECK: %[[OK:.+]] = gpu.lei %{{.+}}, %[[P]]
// CHECK: gpu.assert %[[OK]], %[[P]] {message = "'onnx.Pad' op pads known only at run time must not be negative on the GPU, got {0}"}
// CHECK: gpu.dispatch @pad_constant
// CHECK: %[[R:.+]] = gpu.extract %arg2[0]
// CHECK: gpu.assert %{{.+}}, %[[R]] {message = "'onnx.Tile' op repeats must not be negative, got {0}"}
// CHECK: gpu.dispatch @tile
func.func @main(%x: tensor<?x4xf32>, %pads: tensor<4xi64>, %reps: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = "onnx.Pad"(%x, %pads) {mode = "constant"} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %1 = "onnx.Tile"(%x, %reps) : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}
