//===- PassManager.h - Pipelines of passes ----------------------*- C++ -*-===//
//
// An OpPassManager holds the passes to run on one op kind and nested pass
// managers for ops inside it (`builtin.module(func.func(cse))` runs cse on
// every func.func of the module). The PassManager at the top adds the
// instrumentation: verification after each pass, IR printing, timing and
// statistics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/AsmPrinter.h"
#include "rewrite/Pass.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace onyx {

class OpPassManager {
public:
  /// Runs on ops named `opName` ("any" for every op).
  explicit OpPassManager(StringRef opName = "builtin.module");
  OpPassManager(OpPassManager &&);
  OpPassManager &operator=(OpPassManager &&);
  ~OpPassManager();

  StringRef getOpName() const;
  /// Adds a pass; a pass anchored on another op kind is nested implicitly
  /// where that is unambiguous, otherwise this reports an error.
  void addPass(std::unique_ptr<Pass> pass);
  /// A nested pipeline on the ops named `opName` directly inside this op.
  OpPassManager &nest(StringRef opName);
  bool empty() const;
  /// `builtin.module(func.func(canonicalize{max-iterations=10},cse))`.
  std::string printAsTextualPipeline() const;

  struct Impl;
  Impl &getImpl() const { return *impl; }

private:
  std::unique_ptr<Impl> impl;
};

/// Parses MLIR's pipeline syntax into `pm`: either a pipeline anchored on
/// pm's op (`builtin.module(...)`), or a bare list of passes/nested
/// pipelines (`canonicalize,func.func(cse)`). Errors name the position.
LogicalResult parsePassPipeline(StringRef text, OpPassManager &pm,
                                llvm::raw_ostream &errorStream);

class PassManager : public OpPassManager {
public:
  explicit PassManager(Context *ctx, StringRef opName = "builtin.module");
  ~PassManager();

  /// Verify the IR after each pass (on by default).
  void enableVerifier(bool enabled = true);
  struct IRPrinting {
    std::vector<std::string> beforePasses, afterPasses;
    bool afterAll = false;
    /// Only print after a pass that changed the IR; without afterAll or
    /// afterPasses, print after every pass that changed it.
    bool afterChange = false;
    llvm::raw_ostream *os = nullptr;
    /// How the dumped IR is printed (generic form, locations).
    OpPrintingFlags printingFlags;
  };
  void enableIRPrinting(IRPrinting config);
  /// Prints a tree of wall times per pass when the run ends.
  void enableTiming(llvm::raw_ostream &os);
  /// Prints each pass's statistics when the run ends.
  void enableStatistics(llvm::raw_ostream &os);

  /// Runs the pipeline on `op`; stops at the first pass that fails.
  LogicalResult run(Operation *op);

private:
  struct Instrumentation;
  Context *context;
  std::unique_ptr<Instrumentation> instrumentation;
};

} // namespace onyx
