// ONNX Runtime's greedy loop on a decoder in ONNX Runtime GenAI's layout
// (input_ids, attention_mask, past_key_values.{i}.key/value in; logits,
// present.{i}.key/value out), the reference ids of onyx-run --generate:
//
//   node ort_greedy.js MODEL PROMPT_IDS(comma-separated) NEW_TOKENS [ORT_PREFIX]
//
// Prints `prompt: ...` and `ids: ...` (the new ids); exits with 77 when
// onnxruntime-node is not installed (scripts/fetch-onnxruntime-node.sh).
'use strict';
const path = require('path');

const [model, promptText, countText] = process.argv.slice(2, 5);
const prefix = process.argv[5] || path.join(__dirname, '..', '..', '.ort');
let ort;
try {
  ort = require(path.join(prefix, 'node_modules', 'onnxruntime-node'));
} catch (e) {
  console.log(`skipped: onnxruntime-node is not installed in ${prefix}`);
  process.exit(77);
}

async function main() {
  const session = await ort.InferenceSession.create(model);
  const prompt = promptText.split(',').map(Number);
  const count = Number(countText);
  // The cache starts empty: [1, kv_heads, 0, head_size] per past input.
  const pastShapes = {};
  const meta = session.inputMetadata || [];
  for (const info of meta) {
    if (info.name && info.name.startsWith('past_key_values.'))
      pastShapes[info.name] = info.shape;
  }
  let past = {};
  for (const name of session.inputNames.filter(
           (n) => n.startsWith('past_key_values.'))) {
    const shape = pastShapes[name];
    const kvHeads = Number(shape[1]), head = Number(shape[3]);
    past[name] = new ort.Tensor('float32', new Float32Array(0),
                                [1, kvHeads, 0, head]);
  }
  let tokens = prompt.slice(), total = 0;
  const generated = [];
  for (let step = 0; step < count; ++step) {
    total += tokens.length;
    const feeds = Object.assign({}, past);
    feeds.input_ids = new ort.Tensor(
        'int64', BigInt64Array.from(tokens.map(BigInt)), [1, tokens.length]);
    feeds.attention_mask = new ort.Tensor(
        'int64', new BigInt64Array(total).fill(1n), [1, total]);
    const out = await session.run(feeds);
    const logits = out.logits;
    const vocab = logits.dims[2];
    const last = logits.data.subarray((tokens.length - 1) * vocab,
                                      tokens.length * vocab);
    let best = 0;
    for (let i = 1; i < vocab; ++i)
      if (last[i] > last[best]) best = i;
    generated.push(best);
    tokens = [best];
    past = {};
    for (const name of Object.keys(feeds).filter(
             (n) => n.startsWith('past_key_values.')))
      past[name] = out[name.replace('past_key_values.', 'present.')];
  }
  console.log(`prompt: ${prompt.join(',')}`);
  console.log(`ids: ${generated.join(' ')}`);
}
main();
