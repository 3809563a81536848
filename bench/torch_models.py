#!/usr/bin/env python3
"""PyTorch's time for the models of ../shared/models on a CUDA GPU: the peer
onyx-run --benchmark is compared with (bench/gpu_run.sh).

  python3 bench/torch_models.py GEN_MODELS_DIR [--runs N]

Builds each model from the definitions in GEN_MODELS_DIR/gen_models.py (the
file that exported the .onnx files), in fp32 with TF32 off, and prints per
model the median latency of the eager program and of a CUDA-graph replay of
it, timed with CUDA events around each run (inputs already on the device),
then a 4096x4096x4096 fp32 torch.matmul in TFLOP/s. One line per result:
  torch <model> eager_ms=<median> graph_ms=<median>
  torch matmul4096 ms=<median> tflops=<rate>
"""
import argparse
import importlib.util
import statistics
import sys

import torch


def load_definitions(directory):
    spec = importlib.util.spec_from_file_location(
        "gen_models", f"{directory}/gen_models.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, directory)
    spec.loader.exec_module(module)
    return module


def time_ms(fn, runs, warmup=10):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gen_models_dir")
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    defs = load_definitions(args.gen_models_dir)
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    for name, (_, builder) in defs.MODELS.items():
        torch.manual_seed(defs.SEEDS[name])
        spec = builder()
        model = spec["model"].eval().cuda()
        inputs = [t.cuda() for t in spec["inputs"]]
        with torch.no_grad():
            eager = time_ms(lambda: model(*inputs), args.runs)
            # Capture the same eager program once and replay it.
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                for _ in range(3):
                    model(*inputs)
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                model(*inputs)
            replay = time_ms(graph.replay, args.runs)
        print(f"torch {name} eager_ms={eager:.4f} graph_ms={replay:.4f}")

    n = 4096
    a = torch.randn(n, n, device="cuda")
    b = torch.randn(n, n, device="cuda")
    ms = time_ms(lambda: torch.matmul(a, b), 50)
    print(f"torch matmul4096 ms={ms:.4f} tflops={2 * n**3 / ms / 1e9:.2f}")


if __name__ == "__main__":
    main()
