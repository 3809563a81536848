//===- Support.h - Common vocabulary of the IR ------------------*- C++ -*-===//
//
// Result types and forward declarations used by every IR header, so the
// rest of the project speaks one vocabulary (LLVM's LogicalResult family).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/LogicalResult.h"

namespace onyx {

using llvm::ArrayRef;
using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::failed;
using llvm::failure;
using llvm::FailureOr;
using llvm::isa;
using llvm::LogicalResult;
using llvm::MutableArrayRef;
using llvm::ParseResult;
using llvm::SmallVector;
using llvm::SmallVectorImpl;
using llvm::StringRef;
using llvm::succeeded;
using llvm::success;

class Attribute;
class Block;
class Context;
class Dialect;
class Location;
class Operation;
class Region;
class Type;
class Value;

} // namespace onyx
