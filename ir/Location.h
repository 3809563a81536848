//===- Location.h - Source locations as attributes --------------*- C++ -*-===//
//
// Every operation carries a Location: file:line:col, a name (an ONNX node),
// a call site, a fusion of several, or unknown. They print as MLIR does:
// `loc("model.onnx":3:5)`, `loc("node"("x.onnx":1:1))`, `loc(fused[...])`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Attributes.h"

namespace onyx {

class Location : public Attribute {
public:
  using Attribute::Attribute;
  static bool classof(Attribute a) {
    return a.getKind() >= AttrKind::UnknownLoc &&
           a.getKind() <= AttrKind::FusedLoc;
  }
  /// The first file:line:col found inside this location, if any.
  class FileLineColLoc findFileLineCol() const;
};

class UnknownLoc : public Location {
public:
  using Location::Location;
  static UnknownLoc get(Context *ctx);
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::UnknownLoc;
  }
};

class FileLineColLoc : public Location {
public:
  using Location::Location;
  static FileLineColLoc get(Context *ctx, StringRef file, unsigned line,
                            unsigned column);
  StringAttr getFilename() const;
  unsigned getLine() const;
  unsigned getColumn() const;
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::FileLineColLoc;
  }
};

class NameLoc : public Location {
public:
  using Location::Location;
  /// Without a child, the child is unknown.
  static NameLoc get(StringAttr name, Location child = {});
  StringAttr getName() const;
  Location getChildLoc() const;
  static bool classof(Attribute a) { return a.getKind() == AttrKind::NameLoc; }
};

class CallSiteLoc : public Location {
public:
  using Location::Location;
  static CallSiteLoc get(Location callee, Location caller);
  Location getCallee() const;
  Location getCaller() const;
  static bool classof(Attribute a) {
    return a.getKind() == AttrKind::CallSiteLoc;
  }
};

class FusedLoc : public Location {
public:
  using Location::Location;
  /// Drops unknown locations and duplicates; a single remaining location
  /// without metadata is returned as is, as MLIR does.
  static Location get(Context *ctx, ArrayRef<Location> locs,
                      Attribute metadata = {});
  ArrayRef<Location> getLocations() const;
  Attribute getMetadata() const;
  static bool classof(Attribute a) { return a.getKind() == AttrKind::FusedLoc; }
};

} // namespace onyx
