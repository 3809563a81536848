// ONNX Runtime's outputs for the pretrained models of models.txt, the
// reference that the `thirdparty` tests compare onyx with. For each model
// fetched into DIR/NAME/model.onnx it makes fixed inputs of the kind the
// model's library feeds it (a synthetic page of text for the OCR models,
// synthetic voiced audio for the speech ones; zero recurrent state), runs
// ONNX Runtime's CPU build on them and writes DIR/NAME/input_I.npy and
// output_I.npy in the model's input and output order. The wake-word models
// get what their pipeline gives them: audio -> melspectrogram -> embedding
// windows -> classifier, each stage computed here by ONNX Runtime.
//
//   node ort_reference.js DIR [ORT_PREFIX] [--only=NAME,...]
//   node ort_reference.js DIR [ORT_PREFIX] --benchmark=N [--threads=T]
//       [--warmup-seconds=S] [--only=NAME,...]
//
// --benchmark reads the inputs already written and prints each model's
// median wall time of a run over N runs, after one warm-up run and S more
// seconds of untimed runs (0 by default), with T intra-op threads (ONNX
// Runtime's default, one per core, if not given). Exits with 77 when
// onnxruntime-node is not installed (scripts/fetch-onnxruntime-node.sh).
'use strict';
const fs = require('fs');
const path = require('path');

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const options = Object.fromEntries(
    process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => {
      const [key, value] = a.slice(2).split('=');
      return [key, value === undefined ? '' : value];
    }));
const dir = positional[0];
const prefix = positional[1] || path.join(__dirname, '..', '..', '..', '.ort');
if (!dir) {
  console.error('usage: node ort_reference.js DIR [ORT_PREFIX] [--benchmark=N] [--only=NAME,...]');
  process.exit(2);
}
let ort;
try {
  ort = require(path.join(prefix, 'node_modules', 'onnxruntime-node'));
} catch (e) {
  console.log(`skipped: onnxruntime-node is not installed in ${prefix}` +
              ' (scripts/fetch-onnxruntime-node.sh)');
  process.exit(77);
}

// --- .npy files --------------------------------------------------------

const npyTypes = {
  float32: ['<f4', Float32Array],
  int64: ['<i8', BigInt64Array],
  int32: ['<i4', Int32Array],
};

function writeNpy(file, tensor) {
  const [descr] = npyTypes[tensor.type] || [];
  if (!descr) throw new Error(`${file}: no .npy type for ${tensor.type}`);
  const dims = tensor.dims.map(Number);
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  // Version 1.0: magic, version, header length; the header ends with a
  // newline and pads the data to a multiple of 64 bytes.
  const unpadded = 10 + header.length + 1;
  header += ' '.repeat((64 - (unpadded % 64)) % 64) + '\n';
  const prelude = Buffer.alloc(10);
  prelude.write('\x93NUMPY', 0, 'latin1');
  prelude[6] = 1;
  prelude[7] = 0;
  prelude.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([
    prelude, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  ]));
}

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.toString('latin1', 10, 10 + headerLength);
  const descr = /'descr': *'([^']+)'/.exec(header)[1];
  const shape = /'shape': *\(([^)]*)\)/.exec(header)[1].split(',')
      .map((s) => s.trim()).filter((s) => s).map(Number);
  const data = bytes.subarray(10 + headerLength);
  const buffer = data.buffer.slice(data.byteOffset,
                                   data.byteOffset + data.byteLength);
  const entry = Object.entries(npyTypes).find(([, [d]]) => d === descr);
  if (!entry) throw new Error(`${file}: unsupported dtype ${descr}`);
  return new ort.Tensor(entry[0], new entry[1][1](buffer), shape);
}

// --- Inputs --------------------------------------------------------------

// A fixed pseudo-random sequence in [-0.5, 0.5) (a linear congruential
// generator), so that every machine makes the same inputs.
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296 - 0.5;
  };
}

// Voiced, speech-like audio at 16 kHz in [-0.5, 0.5]: a harmonic source
// whose pitch glides between 100 and 180 Hz, shaped by two formants,
// switched on and off at a syllable rate, over a little noise.
function speech(samples) {
  const random = generator(7);
  const out = new Float32Array(samples);
  let phase = 0, peak = 0;
  for (let i = 0; i < samples; ++i) {
    const t = i / 16000;
    const f0 = 140 + 40 * Math.sin(2 * Math.PI * 0.7 * t);
    phase += 2 * Math.PI * f0 / 16000;
    const formant1 = 500 + 300 * Math.sin(2 * Math.PI * 1.3 * t);
    let value = 0;
    for (let k = 1; k <= 20; ++k) {
      const f = k * f0;
      const amplitude = Math.exp(-(((f - formant1) / 250) ** 2)) +
          0.5 * Math.exp(-(((f - 1900) / 400) ** 2)) + 0.02;
      value += amplitude * Math.sin(k * phase);
    }
    const syllable = Math.max(0, Math.sin(2 * Math.PI * 2.5 * t + 0.3));
    out[i] = value * Math.sqrt(syllable) + 0.02 * random();
    peak = Math.max(peak, Math.abs(out[i]));
  }
  for (let i = 0; i < samples; ++i) out[i] *= 0.5 / peak;
  return out;
}

// A grey page of dark glyph-like strokes in lines, as RGB values 0..255
// ([3][height][width]): the kind of picture an OCR pipeline starts from.
function page(height, width, lineHeight, seed) {
  const random = generator(seed);
  const gray = new Float32Array(height * width);
  for (let y = 0; y < height; ++y)
    for (let x = 0; x < width; ++x)
      gray[y * width + x] = 235 + 10 * Math.sin(x / 37 + y / 53);
  const lineStep = Math.round(lineHeight * 1.6);
  for (let top = Math.round(lineHeight * 0.3); top + lineHeight <= height;
       top += lineStep) {
    const end = width - Math.round(width * (0.05 + 0.4 * (random() + 0.5)));
    for (let x = Math.round(lineHeight * 0.4); x < end;) {
      const glyph = Math.round(lineHeight * (0.6 + 0.5 * (random() + 0.5)));
      const strokes = 2 + Math.floor((random() + 0.5) * 3);
      for (let s = 0; s < strokes; ++s) {
        const vertical = random() > 0;
        const at = Math.floor((random() + 0.5) * (vertical ? glyph : lineHeight));
        const thickness = Math.max(2, Math.round(lineHeight / 10));
        for (let d = 0; d < thickness; ++d)
          for (let u = 0; u < (vertical ? lineHeight : glyph); ++u) {
            const y = top + (vertical ? u : Math.min(lineHeight - 1, at + d));
            const xx = x + (vertical ? Math.min(glyph - 1, at + d) : u);
            if (xx < width && y < height) gray[y * width + xx] = 40;
          }
      }
      x += glyph + Math.round(lineHeight * (0.15 + 0.3 * (random() + 0.5)));
    }
  }
  const rgb = new Float32Array(3 * height * width);
  for (let c = 0; c < 3; ++c)
    for (let i = 0; i < height * width; ++i)
      rgb[c * height * width + i] = Math.min(255, gray[i] + 4 * c);
  return rgb;
}

// NCHW float input of an image: (value / 255 - mean) / std per channel.
function imageTensor(rgb, height, width, mean, std) {
  const data = new Float32Array(rgb.length);
  for (let c = 0; c < 3; ++c)
    for (let i = 0; i < height * width; ++i) {
      const k = c * height * width + i;
      data[k] = (rgb[k] / 255 - mean[c]) / std[c];
    }
  return new ort.Tensor('float32', data, [1, 3, height, width]);
}

const float = (data, dims) => new ort.Tensor('float32', data, dims);
const zeros = (dims) =>
    float(new Float32Array(dims.reduce((a, b) => a * b, 1)), dims);
const sampleRate = new ort.Tensor('int64', BigInt64Array.from([16000n]), []);

// openWakeWord's pipeline: 16-bit-scaled audio -> melspectrogram frames
// (x / 10 + 2) -> windows of 76 frames every 8 -> 96-value embeddings.
const wakeWord = {};
async function melInput() {
  const audio = speech(4 * 16000);
  for (let i = 0; i < audio.length; ++i) audio[i] *= 32767;
  return float(audio, [1, audio.length]);
}
async function melFrames(models) {
  if (!wakeWord.frames) {
    const session = await ort.InferenceSession.create(models.oww_melspectrogram);
    const out = await session.run({[session.inputNames[0]]: await melInput()});
    const mel = out[session.outputNames[0]];
    wakeWord.frames = mel.data.map((v) => v / 10 + 2);
    wakeWord.count = mel.dims[2];
  }
  return wakeWord;
}
async function embeddingWindows(models, windows) {
  const {frames, count} = await melFrames(models);
  if (76 + 8 * (windows - 1) > count)
    throw new Error(`only ${count} melspectrogram frames for ${windows} windows`);
  const data = new Float32Array(windows * 76 * 32);
  for (let w = 0; w < windows; ++w)
    data.set(frames.subarray(8 * w * 32, (8 * w + 76) * 32), w * 76 * 32);
  return float(data, [windows, 76, 32, 1]);
}
async function embeddings(models, count) {
  const session = await ort.InferenceSession.create(models.oww_embedding);
  const out = await session.run(
      {[session.inputNames[0]]: await embeddingWindows(models, count)});
  return float(out[session.outputNames[0]].data, [1, count, 96]);
}

// Each model's inputs, in its input order. MODELS maps names to files (the
// wake-word classifiers need the melspectrogram and embedding models).
const ocrPage = page(320, 320, 20, 11);
const ocrLine = (width, seed) => page(48, width, 32, seed);
const inputs = {
  ppocr_v4_det: () => [imageTensor(ocrPage, 320, 320, [0.485, 0.456, 0.406],
                                   [0.229, 0.224, 0.225])],
  ppocr_v4_rec: () => [imageTensor(ocrLine(320, 12), 48, 320, [0.5, 0.5, 0.5],
                                   [0.5, 0.5, 0.5])],
  ppocr_mobile_v2_cls: () => [imageTensor(ocrLine(192, 13), 48, 192,
                                          [0.5, 0.5, 0.5], [0.5, 0.5, 0.5])],
  oww_melspectrogram: async () => [await melInput()],
  oww_embedding: async (models) => [await embeddingWindows(models, 16)],
  oww_alexa: async (models) => [await embeddings(models, 16)],
  oww_hey_jarvis: async (models) => [await embeddings(models, 16)],
  oww_hey_mycroft: async (models) => [await embeddings(models, 16)],
  oww_hey_rhasspy: async (models) => [await embeddings(models, 16)],
  oww_timer: async (models) => [await embeddings(models, 34)],
  oww_weather: async (models) => [await embeddings(models, 22)],
  // The h/c interface of Silero VAD before v5: 1536 samples a frame.
  silero_vad_legacy: () => [float(speech(16000).slice(4000, 4000 + 1536), [1, 1536]),
                            sampleRate, zeros([2, 1, 64]), zeros([2, 1, 64])],
  silero_vad_v5: () => [float(speech(16000).slice(4000, 4512), [1, 512]),
                        zeros([2, 1, 128]), sampleRate],
  silero_vad_v6: () => [float(speech(16000).slice(4000, 4512), [1, 512]),
                        zeros([2, 1, 128]), sampleRate],
};

// --- Main -----------------------------------------------------------------

function manifest() {
  return fs.readFileSync(path.join(__dirname, 'models.txt'), 'utf8')
      .split('\n').filter((l) => l.trim() && !l.startsWith('#'))
      .map((l) => l.split(/\s+/)[0]);
}

async function main() {
  const only = options.only ? options.only.split(',') : null;
  const models = {};
  for (const name of manifest())
    models[name] = path.join(dir, name, 'model.onnx');
  let failed = 0;
  for (const name of Object.keys(models)) {
    if (only && !only.includes(name)) continue;
    const folder = path.join(dir, name);
    if (!fs.existsSync(models[name])) {
      console.log(`${name}: not fetched (scripts/fetch-thirdparty-models.sh)`);
      continue;
    }
    try {
      const sessionOptions = {};
      if (options.threads) {
        sessionOptions.intraOpNumThreads = Number(options.threads);
        sessionOptions.interOpNumThreads = 1;
      }
      const session =
          await ort.InferenceSession.create(models[name], sessionOptions);
      if (options.benchmark !== undefined) {
        const feeds = {};
        session.inputNames.forEach((input, i) => feeds[input] = readNpy(
                                       path.join(folder, `input_${i}.npy`)));
        await session.run(feeds);
        const warmupEnd =
            process.hrtime.bigint() +
            BigInt(Math.round(Number(options['warmup-seconds'] || 0) * 1e9));
        while (process.hrtime.bigint() < warmupEnd) await session.run(feeds);
        const times = [];
        for (let i = 0; i < Number(options.benchmark || 10); ++i) {
          const start = process.hrtime.bigint();
          await session.run(feeds);
          times.push(Number(process.hrtime.bigint() - start) / 1e6);
        }
        times.sort((a, b) => a - b);
        console.log(`${name}: ONNX Runtime median ${
            times[times.length >> 1].toFixed(3)} ms, min ${times[0].toFixed(3)} ms`);
        continue;
      }
      if (!inputs[name]) throw new Error('no inputs defined in ort_reference.js');
      const values = await inputs[name](models);
      if (values.length !== session.inputNames.length)
        throw new Error(`${values.length} inputs made, the model has ${
            session.inputNames.length}`);
      const feeds = {};
      session.inputNames.forEach((input, i) => feeds[input] = values[i]);
      const out = await session.run(feeds);
      for (const old of fs.readdirSync(folder))
        if (old.endsWith('.npy')) fs.unlinkSync(path.join(folder, old));
      values.forEach((v, i) => writeNpy(path.join(folder, `input_${i}.npy`), v));
      session.outputNames.forEach((output, i) => writeNpy(
                                      path.join(folder, `output_${i}.npy`), out[output]));
      const shapes = (ts) => ts.map((t) => t.dims.join('x')).join(', ');
      console.log(`${name}: inputs ${shapes(values)}; outputs ${
          shapes(session.outputNames.map((o) => out[o]))}`);
    } catch (e) {
      console.log(`${name}: FAIL ${String(e.message || e).split('\n')[0]}`);
      ++failed;
    }
  }
  const version = require(path.join(prefix, 'node_modules', 'onnxruntime-node',
                                    'package.json')).version;
  if (options.benchmark === undefined)
    fs.writeFileSync(path.join(dir, 'onnxruntime-version.txt'), version + '\n');
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
