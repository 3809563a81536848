// The onyx-opt command line: --help, input from a file or standard input,
// output to standard output or a file, errors about files and options, and
// the printing options with their mlir-opt spellings.

// --help lists onyx-opt's own options and hides LLVM's internal ones.
// RUN: onyx-opt --help | FileCheck %s --check-prefix=HELP
// HELP: USAGE: onyx-opt [options] <input file>
// HELP: onyx-opt options:
// HELP: --allow-unregistered-dialect
// HELP: -o <filename>
// HELP: --print-debuginfo
// HELP: --print-elementsattrs-with-hex-if-larger=<long>
// HELP: --print-generic
// HELP: --split-input-file
// HELP: --verify-diagnostics
// HELP: --verify-each
// HELP-NOT: --rng-seed

// A missing input file is an error that names it.
// RUN: not onyx-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NO-INPUT
// NO-INPUT: onyx-opt: could not open input file '{{.*}}does-not-exist.mlir': No such file or directory

// An unknown option is an error.
// RUN: not onyx-opt %s --no-such-option 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// BAD-OPTION: onyx-opt: Unknown command line argument '--no-such-option'.

// -o writes the output to a file, and nothing to standard output.
// RUN: onyx-opt %s --allow-unregistered-dialect -o %t.out | count 0
// RUN: FileCheck %s --input-file=%t.out

// An output file that cannot be created is an error.
// RUN: not onyx-opt %s --allow-unregistered-dialect -o %t.no-such-dir/out.mlir 2>&1 | FileCheck %s --check-prefix=NO-OUTPUT
// NO-OUTPUT: onyx-opt: could not open output file '{{.*}}no-such-dir/out.mlir': No such file or directory

// When the input has errors, no output file is left behind.
// RUN: rm -f %t.failed.out
// RUN: echo '"t.op"() : () -> i32 )' > %t.bad.mlir
// RUN: not onyx-opt %t.bad.mlir --allow-unregistered-dialect -o %t.failed.out 2>&1 | FileCheck %s --check-prefix=BAD-INPUT
// RUN: not ls %t.failed.out
// BAD-INPUT: bad.mlir:1:21: error: expected operation name in quotes

// `-` and a missing input file name both read standard input, which
// locations call <stdin>.
// RUN: onyx-opt - --allow-unregistered-dialect < %s | FileCheck %s
// RUN: onyx-opt --allow-unregistered-dialect < %s | FileCheck %s
// RUN: onyx-opt --allow-unregistered-dialect --print-debuginfo < %s | FileCheck %s --check-prefix=STDIN-LOC
// STDIN-LOC: "t.dense"() {{.*}} loc("<stdin>":[[# @LINE + 12]]:3)

// The printing options also have mlir-opt's names.
// RUN: onyx-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: onyx-opt %s --allow-unregistered-dialect --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUGINFO
// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "cli"}>
// DEBUGINFO: } loc("{{.*}}cli.mlir":[[# @LINE + 5]]:1)

// CHECK-LABEL: func.func @cli() {
// CHECK-NEXT: "t.dense"() {a = dense<[1, 2, 3]> : tensor<3xi8>} : () -> ()
// CHECK-NEXT: return
func.func @cli() {
  "t.dense"() {a = dense<[1, 2, 3]> : tensor<3xi8>} : () -> ()
  return
}

// Dense elements print in hex above a number of elements that can be
// changed (-1: never), under either name, as with mlir-opt.
// RUN: onyx-opt %s --allow-unregistered-dialect --print-elementsattrs-with-hex-if-larger=2 | FileCheck %s --check-prefix=HEX
// RUN: onyx-opt %s --allow-unregistered-dialect --mlir-print-elementsattrs-with-hex-if-larger=2 | FileCheck %s --check-prefix=HEX
// RUN: mlir-opt %s --allow-unregistered-dialect --mlir-print-elementsattrs-with-hex-if-larger=2 | FileCheck %s --check-prefix=HEX
// HEX: "t.dense"() {a = dense<"0x010203"> : tensor<3xi8>} : () -> ()
// RUN: %python -c "print('func.func private @f() attributes {a = dense<[' + ', '.join(['1', '2'] * 100) + ']> : tensor<200xi8>}')" > %t.big.mlir
// RUN: onyx-opt %t.big.mlir --print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s --check-prefix=NO-HEX
// RUN: mlir-opt %t.big.mlir --mlir-print-elementsattrs-with-hex-if-larger=-1 | FileCheck %s --check-prefix=NO-HEX
// NO-HEX: attributes {a = dense<[1, 2, 1, 2, {{.*}}, 1, 2]> : tensor<200xi8>}

// --verify-each=0 prints IR that does not verify (here a return outside a
// function) instead of rejecting it.
// RUN: echo 'func.return' > %t.unverified.mlir
// RUN: onyx-opt %t.unverified.mlir --verify-each=0 | FileCheck %s --check-prefix=NO-VERIFY
// RUN: not onyx-opt %t.unverified.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// NO-VERIFY: {{^}}module {
// NO-VERIFY-NEXT: {{^}}  func.return
// VERIFY: error: 'func.return' op expects parent op 'func.func'
