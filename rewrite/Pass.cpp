//===- Pass.cpp - Pass options, statistics and the pass registry ----------===//
//
// Options are parsed from the text between a pass's braces in a pipeline
// (`canonicalize{max-iterations=3 top-down=false}`) or from an onyx-opt
// flag's value, and printed back in the same syntax, so that a pipeline
// printed by printAsTextualPipeline parses to the same pipeline.
//
//===----------------------------------------------------------------------===//

#include "rewrite/Pass.h"
#include "rewrite/PassDetail.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <type_traits>

using namespace onyx;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

PassOptionBase::PassOptionBase(Pass *owner, StringRef name,
                               StringRef description)
    : name(name.str()), description(description.str()) {
  owner->options.push_back(this);
}

PassOptionBase::~PassOptionBase() = default;

void Pass::copyOptionValuesFrom(const Pass &other) {
  assert(options.size() == other.options.size() && "options of another pass");
  for (auto [option, from] : llvm::zip_equal(options, other.options))
    option->copyValueFrom(*from);
}

template <typename T>
LogicalResult PassOption<T>::parse(StringRef text, std::string &error) {
  if constexpr (std::is_same_v<T, bool>) {
    // A bare `top-down` means true, as a bare boolean flag does in llvm::cl.
    if (text.empty() || text == "true" || text == "1") {
      value = true;
      return success();
    }
    if (text == "false" || text == "0") {
      value = false;
      return success();
    }
    error = "expected 'true', 'false', '1' or '0'";
    return failure();
  } else if constexpr (std::is_same_v<T, std::string>) {
    value = text.str();
    return success();
  } else {
    // getAsInteger also fails on overflow and, for unsigned, on a sign, so
    // no value is silently wrapped or truncated.
    if (text.getAsInteger(10, value)) {
      error = std::is_signed_v<T> ? "expected a decimal integer"
                                  : "expected a non-negative decimal integer";
      return failure();
    }
    return success();
  }
}

template <typename T> std::string PassOption<T>::print() const {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "true" : "false";
  } else if constexpr (std::is_same_v<T, std::string>) {
    // Quoted when the option parser would otherwise split the value.
    if (llvm::any_of(value, [](char c) {
          return std::isspace(static_cast<unsigned char>(c)) || c == '{' ||
                 c == '}';
        }))
      return "\"" + value + "\"";
    return value;
  } else {
    return std::to_string(value);
  }
}

namespace onyx {
template class PassOption<bool>;
template class PassOption<int64_t>;
template class PassOption<unsigned>;
template class PassOption<std::string>;
} // namespace onyx

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

PassStatistic::PassStatistic(Pass *owner, StringRef name, StringRef description)
    : name(name.str()), description(description.str()) {
  owner->statistics.push_back(this);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

Pass::~Pass() = default;

static bool isSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c));
}

/// The names of `pass`'s options, for error messages.
static std::string describeValidOptions(const Pass &pass) {
  if (pass.getOptions().empty())
    return "pass '" + pass.getArgument().str() + "' has no options";
  std::string result = "valid options of '" + pass.getArgument().str() + "': ";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(pass.getOptions(), os, [&](PassOptionBase *option) {
    os << option->getName();
  });
  return result;
}

LogicalResult detail::setPassOptions(Pass &pass, StringRef text,
                                     std::string &error, size_t &errorOffset) {
  size_t pos = 0, size = text.size();
  auto skipSpaces = [&] {
    while (pos < size && isSpace(text[pos]))
      ++pos;
  };
  auto fail = [&](size_t offset, const llvm::Twine &message) {
    errorOffset = offset;
    error = message.str();
    return failure();
  };

  for (skipSpaces(); pos < size; skipSpaces()) {
    size_t nameStart = pos;
    while (pos < size && text[pos] != '=' && !isSpace(text[pos]))
      ++pos;
    StringRef name = text.slice(nameStart, pos);
    if (name.empty())
      return fail(nameStart, "expected an option name before '='");

    // A value is a word, a "quoted string", or a {braced text} that may hold
    // spaces and nested braces; the quotes and outer braces are dropped.
    StringRef value;
    if (pos < size && text[pos] == '=') {
      ++pos;
      size_t valueStart = pos;
      if (pos < size && text[pos] == '"') {
        size_t close = text.find('"', pos + 1);
        if (close == StringRef::npos)
          return fail(valueStart,
                      "missing closing '\"' of the value of '" + name + "'");
        value = text.slice(pos + 1, close);
        pos = close + 1;
      } else if (pos < size && text[pos] == '{') {
        unsigned depth = 0;
        for (; pos < size; ++pos) {
          if (text[pos] == '{')
            ++depth;
          else if (text[pos] == '}' && --depth == 0)
            break;
        }
        if (pos == size)
          return fail(valueStart,
                      "missing closing '}' of the value of '" + name + "'");
        value = text.slice(valueStart + 1, pos);
        ++pos;
      } else {
        while (pos < size && !isSpace(text[pos]))
          ++pos;
        value = text.slice(valueStart, pos);
      }
    }

    auto it = llvm::find_if(pass.getOptions(), [&](PassOptionBase *option) {
      return option->getName() == name;
    });
    if (it == pass.getOptions().end())
      return fail(nameStart, "no such option '" + name + "'; " +
                                 describeValidOptions(pass));
    std::string reason;
    if (failed((*it)->parse(value, reason)))
      return fail(nameStart, "invalid value '" + value + "' for option '" +
                                 name + "': " + reason);
  }
  return success();
}

LogicalResult Pass::setOptions(StringRef text, std::string &error) {
  size_t errorOffset;
  return detail::setPassOptions(*this, text, error, errorOffset);
}

std::string Pass::printAsTextualPipeline() const {
  std::string result = getArgument().str();
  if (options.empty())
    return result;
  llvm::raw_string_ostream os(result);
  os << '{';
  llvm::interleave(
      options, os,
      [&](PassOptionBase *option) {
        os << option->getName() << '=' << option->print();
      },
      " ");
  os << '}';
  return result;
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

static llvm::StringMap<PassInfo> &getRegistry() {
  static llvm::StringMap<PassInfo> registry;
  return registry;
}

void onyx::registerPass(std::function<std::unique_ptr<Pass>()> create) {
  // The argument and description come from an instance, so a pass states
  // them once, in its class.
  std::unique_ptr<Pass> pass = create();
  auto [it, inserted] = getRegistry().try_emplace(pass->getArgument());
  if (!inserted)
    return;
  it->second.argument = pass->getArgument().str();
  it->second.description = pass->getDescription().str();
  it->second.create = std::move(create);
}

void onyx::registerTestPass(std::function<std::unique_ptr<Pass>()> create) {
  std::string argument = create()->getArgument().str();
  registerPass(std::move(create));
  getRegistry()[argument].isTestPass = true;
}

void onyx::registerPassPipeline(StringRef argument, StringRef description,
                                std::function<void(OpPassManager &)> build) {
  auto [it, inserted] = getRegistry().try_emplace(argument);
  if (!inserted)
    return;
  it->second.argument = argument.str();
  it->second.description = description.str();
  it->second.buildPipeline = std::move(build);
}

const PassInfo *onyx::lookupPassInfo(StringRef argument) {
  auto it = getRegistry().find(argument);
  return it == getRegistry().end() ? nullptr : &it->second;
}

std::vector<const PassInfo *> onyx::getRegisteredPasses() {
  std::vector<const PassInfo *> result;
  for (const auto &entry : getRegistry())
    result.push_back(&entry.second);
  llvm::sort(result, [](const PassInfo *a, const PassInfo *b) {
    return a->argument < b->argument;
  });
  return result;
}
