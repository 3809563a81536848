//===- ContextImpl.h - Private state of the Context -------------*- C++ -*-===//
#pragma once

#include "ir/AttributeDetail.h"
#include "ir/Context.h"
#include "ir/TypeDetail.h"

namespace onyx {

/// Types and attributes that exist exactly once per Context.
struct Context::Singletons {
  detail::TypeStorage index{TypeKind::Index, nullptr};
  detail::TypeStorage none{TypeKind::None, nullptr};
  detail::FloatTypeStorage floats[4] = {
      {{TypeKind::Float, nullptr}, FloatType::F16},
      {{TypeKind::Float, nullptr}, FloatType::BF16},
      {{TypeKind::Float, nullptr}, FloatType::F32},
      {{TypeKind::Float, nullptr}, FloatType::F64}};
  detail::AttributeStorage unit{AttrKind::Unit, nullptr};
  detail::AttributeStorage unknownLoc{AttrKind::UnknownLoc, nullptr};
  Attribute trueAttr, falseAttr;
  DictionaryAttr emptyDict;
};

} // namespace onyx
