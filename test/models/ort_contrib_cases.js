// Runs the node-level contrib-op models of gen_contrib_ops.py (listed in
// contrib/cases.txt) on ONNX Runtime (onnxruntime-node, CPU) and compares
// its outputs with the committed NumPy outputs, which onyx's own tests
// compare onyx with: so the NumPy reference is checked against ONNX
// Runtime's kernels. Prints NAME: PASS / FAIL per case; exits with 77 when
// onnxruntime-node is not installed (scripts/fetch-onnxruntime-node.sh).
//
//   node ort_contrib_cases.js CASES_DIR [ORT_PREFIX]
'use strict';
const fs = require('fs');
const path = require('path');

const casesDir = process.argv[2];
const prefix = process.argv[3] || path.join(__dirname, '..', '..', '.ort');
let ort;
try {
  ort = require(path.join(prefix, 'node_modules', 'onnxruntime-node'));
} catch (e) {
  console.log(`skipped: onnxruntime-node is not installed in ${prefix}`);
  process.exit(77);
}

// A little-endian .npy file of float32, int32 or int64 as an ort.Tensor.
function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.toString('latin1', 10, 10 + headerLength);
  const descr = /'descr': *'([^']+)'/.exec(header)[1];
  const shapeText = /'shape': *\(([^)]*)\)/.exec(header)[1];
  const shape = shapeText.split(',').map((s) => s.trim()).filter((s) => s)
      .map(Number);
  const data = bytes.subarray(10 + headerLength);
  const buffer = data.buffer.slice(data.byteOffset,
                                   data.byteOffset + data.byteLength);
  const types = {
    '<f4': ['float32', Float32Array],
    '<i4': ['int32', Int32Array],
    '<i8': ['int64', BigInt64Array],
  };
  if (!types[descr]) throw new Error(`${file}: unsupported dtype ${descr}`);
  const [type, ArrayType] = types[descr];
  return new ort.Tensor(type, new ArrayType(buffer), shape);
}

async function main() {
  const lines = fs.readFileSync(path.join(casesDir, 'cases.txt'), 'utf8')
      .split('\n').filter((l) => l.trim());
  let failed = 0;
  for (const line of lines) {
    const [name, numInputs, numOutputs] = line.split(/\s+/);
    const file = (kind, i) => path.join(casesDir, `${name}.${kind}_${i}.npy`);
    let message = '';
    try {
      const session =
          await ort.InferenceSession.create(path.join(casesDir, name + '.onnx'));
      const feeds = {};
      session.inputNames.forEach(
          (input, i) => feeds[input] = readNpy(file('input', i)));
      const results = await session.run(feeds);
      for (let i = 0; i < Number(numOutputs); ++i) {
        const expected = readNpy(file('output', i));
        const actual = results[session.outputNames[i]];
        if (actual.dims.join('x') !== expected.dims.join('x')) {
          message += ` output ${i}: shape ${actual.dims} vs ${expected.dims};`;
          continue;
        }
        let worst = 0;
        for (let j = 0; j < expected.data.length; ++j) {
          const e = expected.data[j], a = actual.data[j];
          const excess = Math.abs(a - e) - (1e-4 + 1e-3 * Math.abs(e));
          worst = Math.max(worst, excess);
        }
        if (worst > 0)
          message += ` output ${i}: off by ${worst} beyond the tolerance;`;
      }
    } catch (e) {
      message = ' ' + String(e.message || e).split('\n')[0];
    }
    console.log(message ? `${name}: FAIL${message}` : `${name}: PASS`);
    if (message) ++failed;
  }
  console.log(`${failed} failed`);
  process.exit(failed ? 1 : 0);
}
main();
