//===- AsmPrinter.h - Writing IR text ---------------------------*- C++ -*-===//
//
// Prints IR in MLIR's textual form: custom forms where an op has one
// (unless the generic form is asked for), deterministic SSA names
// (%argN, %N, %N#k, ^bbN restarting in each isolated region), location
// aliases at the end when debug info is printed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Support.h"

#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace onyx {

class OpPrintingFlags {
public:
  OpPrintingFlags &printGenericOpForm(bool enable = true) {
    generic = enable;
    return *this;
  }
  OpPrintingFlags &enableDebugInfo(bool enable = true) {
    debugInfo = enable;
    return *this;
  }
  /// Dense elements with more elements than this print as a hex string.
  OpPrintingFlags &printElementsWithHexIfLarger(int64_t threshold) {
    hexThreshold = threshold;
    return *this;
  }
  bool shouldPrintGenericOpForm() const { return generic; }
  bool shouldPrintDebugInfo() const { return debugInfo; }
  int64_t getHexThreshold() const { return hexThreshold; }

private:
  bool generic = false;
  bool debugInfo = false;
  int64_t hexThreshold = 100;
};

} // namespace onyx
