//===- Pass.h - Passes, their options and statistics ------------*- C++ -*-===//
//
// A Pass transforms one operation (its anchor: a builtin.module, a
// func.func, or any op). Passes are registered by name so that pipelines
// can be written as text (`builtin.module(func.func(canonicalize))`) and
// each pass becomes a flag of onyx-opt (`--canonicalize`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Operation.h"

#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace onyx {

class Pass;

/// A named option of a pass, set from pipeline text as `name=value`.
class PassOptionBase {
public:
  PassOptionBase(Pass *owner, StringRef name, StringRef description);
  virtual ~PassOptionBase();
  StringRef getName() const { return name; }
  StringRef getDescription() const { return description; }
  /// Parses `value`; returns failure with a message in `error`.
  virtual LogicalResult parse(StringRef value, std::string &error) = 0;
  /// The current value as pipeline text.
  virtual std::string print() const = 0;
  /// Takes the value of `other`, the same option of another instance of
  /// the pass.
  virtual void copyValueFrom(const PassOptionBase &other) = 0;

private:
  std::string name, description;
};

/// An option of type bool, int64_t, unsigned or std::string.
template <typename T> class PassOption : public PassOptionBase {
public:
  PassOption(Pass *owner, StringRef name, StringRef description, T init)
      : PassOptionBase(owner, name, description), value(init) {}
  operator const T &() const { return value; }
  const T &getValue() const { return value; }
  PassOption &operator=(const T &v) {
    value = v;
    return *this;
  }
  LogicalResult parse(StringRef text, std::string &error) override;
  std::string print() const override;
  void copyValueFrom(const PassOptionBase &other) override {
    value = static_cast<const PassOption &>(other).value;
  }

private:
  T value;
};

/// A counter reported by `--pass-statistics`.
class PassStatistic {
public:
  PassStatistic(Pass *owner, StringRef name, StringRef description);
  StringRef getName() const { return name; }
  StringRef getDescription() const { return description; }
  uint64_t getValue() const { return value; }
  PassStatistic &operator+=(uint64_t n) {
    value += n;
    return *this;
  }
  PassStatistic &operator++() {
    ++value;
    return *this;
  }

private:
  std::string name, description;
  uint64_t value = 0;
};

class Pass {
public:
  virtual ~Pass();
  /// Options and statistics register themselves with their pass, so a
  /// copied pass would point at the original's: clone() makes new ones.
  Pass(const Pass &) = delete;
  Pass &operator=(const Pass &) = delete;

  /// The name used in pipelines and as the onyx-opt flag.
  virtual StringRef getArgument() const = 0;
  virtual StringRef getDescription() const = 0;
  /// The name shown in IR dumps, timing and statistics reports (`CSE`);
  /// the argument unless a pass has a nicer one.
  virtual StringRef getName() const { return getArgument(); }
  /// The op kind this pass runs on; nullopt for any op.
  std::optional<StringRef> getOpName() const { return opName; }
  /// A fresh instance with the same options, for nested pipelines.
  virtual std::unique_ptr<Pass> clone() const = 0;

  /// Runs once before the first run, after options are set (e.g. to freeze
  /// patterns).
  virtual LogicalResult initialize(Context *) { return success(); }
  /// Transforms getOperation(); calls signalPassFailure() on error (after
  /// emitting diagnostics).
  virtual void runOnOperation() = 0;

  Operation *getOperation() const { return op; }
  Context *getContext() const { return op->getContext(); }
  void signalPassFailure() { failed = true; }

  ArrayRef<PassOptionBase *> getOptions() const { return options; }
  /// Parses `name=value name2=value2` (the text inside `{...}`).
  LogicalResult setOptions(StringRef text, std::string &error);
  /// `name{opt=value ...}` as pipeline text.
  std::string printAsTextualPipeline() const;
  /// Sets each option to its value in `other`, another instance of the
  /// same pass (whose options were registered in the same order).
  void copyOptionValuesFrom(const Pass &other);
  ArrayRef<PassStatistic *> getStatistics() const { return statistics; }

protected:
  explicit Pass(std::optional<StringRef> opName = std::nullopt)
      : opName(opName) {}

private:
  friend class PassOptionBase;
  friend class PassStatistic;
  friend class OpPassManager;
  friend class PassManager;

  std::optional<StringRef> opName;
  Operation *op = nullptr;
  bool failed = false;
  std::vector<PassOptionBase *> options;
  std::vector<PassStatistic *> statistics;
};

/// The members every pass writes the same way: `class P : public
/// PassWrapper<P>` with `P() : PassWrapper("argument", "description",
/// anchor) {}` names, describes and clones it, the clone with the same
/// option values. `argument` and `description` must outlive the pass
/// (string literals).
template <typename Derived> class PassWrapper : public Pass {
public:
  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override { return description; }
  std::unique_ptr<Pass> clone() const override {
    auto copy = std::make_unique<Derived>();
    copy->copyOptionValuesFrom(*this);
    return copy;
  }

protected:
  /// `anchor`: the op kind the pass runs on; nullopt for any op.
  PassWrapper(StringRef argument, StringRef description,
              std::optional<StringRef> anchor = std::nullopt)
      : Pass(anchor), argument(argument), description(description) {}

private:
  StringRef argument, description;
};

class OpPassManager;

/// The registry behind pipeline text and onyx-opt's pass flags. An entry
/// is a pass (`create`) or a named pipeline (`buildPipeline`), which adds
/// its passes one by one so that each shows in IR dumps and timing.
struct PassInfo {
  std::string argument;
  std::string description;
  std::function<std::unique_ptr<Pass>()> create;
  std::function<void(OpPassManager &)> buildPipeline;
  /// A pass that exists for onyx's own tests: onyx-opt lists it only under
  /// --help-hidden.
  bool isTestPass = false;
  bool isPipeline() const { return bool(buildPipeline); }
};

/// Registers a pass kind (once; later registrations of a name are ignored).
void registerPass(std::function<std::unique_ptr<Pass>()> create);
/// Registers a pass that exists only for onyx's own tests.
void registerTestPass(std::function<std::unique_ptr<Pass>()> create);
/// Registers a named pipeline (`--lower`, `lower` in pipeline text).
void registerPassPipeline(StringRef argument, StringRef description,
                          std::function<void(OpPassManager &)> build);
const PassInfo *lookupPassInfo(StringRef argument);
/// All registered passes, sorted by argument.
std::vector<const PassInfo *> getRegisteredPasses();

} // namespace onyx
