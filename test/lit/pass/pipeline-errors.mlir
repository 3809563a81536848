// Mistakes in pipeline text are reported with the column and a caret, and
// nothing runs.
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(func.func(cse),foo)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN --strict-whitespace
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(func.func(cse)' 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(cse))' 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(cse,,dce)' 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not onyx-opt %s --pass-pipeline='cse dce' 2>&1 | FileCheck %s --check-prefix=COMMA
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(test-func-count)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(any(test-func-count))' 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(cse(dce))' 2>&1 | FileCheck %s --check-prefix=PASSPAREN
// RUN: not onyx-opt %s --pass-pipeline='func.func(test-func-count{annotate=1 colour=red})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not onyx-opt %s --pass-pipeline='func.func(test-func-count{annotate=maybe})' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not onyx-opt %s --pass-pipeline='func.func(test-func-count{annotate=1)' 2>&1 | FileCheck %s --check-prefix=BRACE
// RUN: not onyx-opt %s --pass-pipeline='builtin.module(cse{max-iterations=3})' 2>&1 | FileCheck %s --check-prefix=NOOPTIONS

// UNKNOWN:{{^}}<pass-pipeline>:1:31: error: 'foo' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT:{{^}}builtin.module(func.func(cse),foo)
// UNKNOWN-NEXT:{{^}}                              ^

// UNCLOSED:      <pass-pipeline>:1:30: error: expected ')'
// UNCLOSED:      <pass-pipeline>:1:15: note: to match this '('

// EXTRA: <pass-pipeline>:1:20: error: unexpected ')' without a matching '('

// EMPTY: <pass-pipeline>:1:20: error: expected a pass name, or an op name and a nested pipeline in '(...)'

// COMMA: <pass-pipeline>:1:5: error: expected ','

// ANCHOR: <pass-pipeline>:1:16: error: can't add pass 'test-func-count' restricted to 'func.func' on a PassManager intended to run on 'builtin.module'

// A func.func pass in an `any` pipeline has no op kind to be nested on.
// ANY: <pass-pipeline>:1:20: error: can't add pass 'test-func-count' restricted to 'func.func' on a PassManager intended to run on 'any'

// PASSPAREN: <pass-pipeline>:1:16: error: 'cse' is a pass, not an op name; pass options go in '{...}'

// OPTION: <pass-pipeline>:1:38: error: no such option 'colour'; valid options of 'test-func-count': annotate, attr-name

// VALUE: <pass-pipeline>:1:27: error: invalid value 'maybe' for option 'annotate': expected 'true', 'false', '1' or '0'

// BRACE:      <pass-pipeline>:1:38: error: expected '}'
// BRACE:      <pass-pipeline>:1:26: note: to match this '{'

// NOOPTIONS: <pass-pipeline>:1:20: error: no such option 'max-iterations'; pass 'cse' has no options

func.func @f() {
  return
}
