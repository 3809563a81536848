// bench/dynamic_shapes.py end to end on a tiny model: two rounds, dynamic
// and specialized in alternating order, each measurement after its warm-up
// in its own process; the table has a row per size, and the dynamic build
// compiles nothing and creates no pipeline after the first size.

// RUN: env ONYX_RUN=onyx-run %python %S/../../../bench/dynamic_shapes.py \
// RUN:   %S/../../../bench/dynamic_elementwise.mlir \
// RUN:   --inputs='{n}x1024xf32=0.5;1024xf32=0.25' --sizes=1,7 --runs=2 \
// RUN:   --rounds=2 --warmup-seconds=0.02 --dispatches | FileCheck %s

// CHECK: dynamic compile: {{[0-9.]+}} ms, 1 kernels compiled once
// CHECK: 2 rounds of 2 runs, each after 0.02 s of warm-up runs
// CHECK: | size | dynamic ms | specialized ms | ratio | dynamic span ms | specialized span ms | span ratio | ratio range | switch us | kernels compiled | pipelines created |
// CHECK: | 1 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[-0-9.]+}} | {{[-0-9.]+}} | {{[-0-9.]+}} | {{[-0-9.]+}} | {{[0-9]+|reused}} | 0 | 0 |
// CHECK-NEXT: | 7 | {{[0-9.]+}} | {{[0-9.]+}} | {{[0-9.]+}} | {{[-0-9.]+}} | {{[-0-9.]+}} | {{[-0-9.]+}} | {{[-0-9.]+}} | {{[0-9]+|reused}} | 0 | 0 |
// CHECK: size 1: dynamic ran 1 dispatches, specialized 1 (same kinds and counts)
// CHECK: size 7: dynamic ran 1 dispatches, specialized 1 (same kinds and counts)
