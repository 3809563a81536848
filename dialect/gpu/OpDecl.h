//===- OpDecl.h - The members every gpu op declares -------------*- C++ -*-===//
//
// Each op of the gpu dialect is a class with the same five members: its
// constructor from an Operation, its name, and the verifier, printer and
// parser its .cpp file defines. ONYX_GPU_OP declares them in one line, so
// that an op's class shows only what is its own (builders, accessors).
//
//===----------------------------------------------------------------------===//
#pragma once

// Expanded where ir/Builder.h and ir/OpAsm.h are included.

/// In the public part of `class XOp : public Op<XOp>`, for the op `gpu.NAME`
/// (NAME a string literal).
#define ONYX_GPU_OP(NAME)                                                      \
  using Op::Op;                                                                \
  static StringRef getOperationName() { return "gpu." NAME; }                  \
  LogicalResult verify();                                                      \
  void print(OpAsmPrinter &p);                                                 \
  static ParseResult parse(OpAsmParser &parser, OperationState &result)
