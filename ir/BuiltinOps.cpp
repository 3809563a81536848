//===- BuiltinOps.cpp - builtin.module, func.func, func.return ------------===//
#include "ir/BuiltinOps.h"

namespace onyx {

BuiltinDialect::BuiltinDialect(Context *ctx) : Dialect("builtin", ctx) {
  addOperations<ModuleOp>();
}

FuncDialect::FuncDialect(Context *ctx) : Dialect("func", ctx) {
  addOperations<FuncOp, ReturnOp>();
}

/// Checks the fixed shape of these ops, in MLIR's words: `numRegions`
/// regions, no results, and no operands unless `variadicOperands`. The
/// other checks of their verifiers rely on it.
static LogicalResult verifyShape(OpState op, unsigned numRegions,
                                 bool variadicOperands) {
  Operation *state = op.getOperation();
  if (state->getNumRegions() != numRegions)
    return op.emitOpError(numRegions ? "requires one region"
                                     : "requires zero regions");
  if (state->getNumResults() != 0)
    return op.emitOpError("requires zero results");
  if (!variadicOperands && state->getNumOperands() != 0)
    return op.emitOpError("requires zero operands");
  return success();
}

//===----------------------------------------------------------------------===//
// builtin.module
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> ModuleOp::getPropertyNames() {
  static const StringRef names[] = {"sym_name", "sym_visibility"};
  return names;
}

void ModuleOp::build(OpBuilder &builder, OperationState &state,
                     std::optional<StringRef> name) {
  state.addRegion()->emplaceBlock();
  if (name)
    state.addAttribute("sym_name", builder.getStringAttr(*name));
}

ModuleOp ModuleOp::create(Location loc, std::optional<StringRef> name) {
  OpBuilder builder(loc.getContext());
  OperationState state(loc, getOperationName());
  build(builder, state, name);
  return ModuleOp(Operation::create(state));
}

std::optional<StringRef> ModuleOp::getName() {
  if (auto name = state->getAttrOfType<StringAttr>("sym_name"))
    return name.getValue();
  return std::nullopt;
}

SmallVector<FuncOp> getDefinedFunctions(ModuleOp module) {
  SmallVector<FuncOp> funcs;
  for (Operation &op : *module.getBody())
    if (auto func = dyn_cast<FuncOp>(&op); func && !func.isExternal())
      funcs.push_back(func);
  return funcs;
}

Operation *ModuleOp::lookupSymbol(StringRef name) {
  for (Operation &op : *getBody())
    if (auto sym = op.getAttrOfType<StringAttr>("sym_name"))
      if (sym.getValue() == name)
        return &op;
  return nullptr;
}

LogicalResult ModuleOp::verify() {
  if (failed(verifyShape(*this, /*numRegions=*/1, /*variadicOperands=*/false)))
    return failure();
  if (state->getRegion(0).empty() || !state->getRegion(0).hasOneBlock())
    return emitOpError("expects a body region with exactly one block");
  if (!getBody()->args_empty())
    return emitOpError("expects a body block without arguments");
  if (Attribute name = state->getAttr("sym_name");
      name && !isa<StringAttr>(name))
    return emitOpError("expects 'sym_name' to be a string");
  return success();
}

void ModuleOp::print(OpAsmPrinter &p) {
  if (std::optional<StringRef> name = getName()) {
    p << " ";
    p.printSymbolName(*name);
  }
  p.printOptionalAttrDictWithKeyword(state->getAttrs(), {"sym_name"});
  p << " ";
  // The body has no terminator to leave implicit: print every op, even a
  // terminator that ended up there (in IR that does not verify).
  p.printRegion(state->getRegion(0), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

ParseResult ModuleOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (succeeded(parser.parseOptionalSymbolName(name)))
    result.addAttribute("sym_name", name);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

//===----------------------------------------------------------------------===//
// func.func
//===----------------------------------------------------------------------===//

ArrayRef<StringRef> FuncOp::getPropertyNames() {
  static const StringRef names[] = {"arg_attrs", "function_type", "res_attrs",
                                    "sym_name", "sym_visibility"};
  return names;
}

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute("sym_name", builder.getStringAttr(name));
  state.addAttribute("function_type", builder.getTypeAttr(type));
  state.addRegion();
}

StringRef FuncOp::getSymName() {
  return state->getAttrOfType<StringAttr>("sym_name").getValue();
}

FunctionType FuncOp::getFunctionType() {
  return cast<FunctionType>(
      state->getAttrOfType<TypeAttr>("function_type").getValue());
}

void FuncOp::setFunctionType(FunctionType type) {
  state->setAttr("function_type", TypeAttr::get(type));
}

bool FuncOp::isPrivate() {
  auto vis = state->getAttrOfType<StringAttr>("sym_visibility");
  return vis && vis.getValue() == "private";
}

static DictionaryAttr getListEntry(Operation *op, StringRef name, unsigned i) {
  auto list = op->getAttrOfType<ArrayAttr>(name);
  if (!list || i >= list.size())
    return {};
  auto dict = dyn_cast<DictionaryAttr>(list[i]);
  return dict && !dict.empty() ? dict : DictionaryAttr();
}

DictionaryAttr FuncOp::getArgAttrDict(unsigned i) {
  return getListEntry(state, "arg_attrs", i);
}
void FuncOp::setArgAttr(unsigned i, StringRef name, Attribute value) {
  Context *ctx = state->getContext();
  SmallVector<Attribute> list(getNumArguments(), DictionaryAttr::get(ctx, {}));
  if (auto old = state->getAttrOfType<ArrayAttr>("arg_attrs"))
    for (auto [n, entry] : llvm::enumerate(old.getValue()))
      if (n < list.size() && isa<DictionaryAttr>(entry))
        list[n] = entry;
  SmallVector<NamedAttribute> entries;
  for (const NamedAttribute &entry : cast<DictionaryAttr>(list[i]))
    if (entry.getName() != name)
      entries.push_back(entry);
  entries.push_back({StringAttr::get(ctx, name), value});
  list[i] = DictionaryAttr::get(ctx, entries);
  state->setAttr("arg_attrs", ArrayAttr::get(ctx, list));
}

DictionaryAttr FuncOp::getResultAttrDict(unsigned i) {
  return getListEntry(state, "res_attrs", i);
}

LogicalResult FuncOp::verify() {
  if (failed(verifyShape(*this, /*numRegions=*/1, /*variadicOperands=*/false)))
    return failure();
  auto name = state->getAttrOfType<StringAttr>("sym_name");
  if (!name)
    return emitOpError("requires a 'sym_name' string attribute");
  auto typeAttr = state->getAttrOfType<TypeAttr>("function_type");
  if (!typeAttr || !isa<FunctionType>(typeAttr.getValue()))
    return emitOpError("requires a 'function_type' attribute of function type");
  FunctionType type = getFunctionType();
  for (StringRef listName : {"arg_attrs", "res_attrs"}) {
    Attribute list = state->getAttr(listName);
    if (!list)
      continue;
    auto array = dyn_cast<ArrayAttr>(list);
    size_t expected = listName == "arg_attrs" ? type.getInputs().size()
                                              : type.getResults().size();
    if (!array || array.size() != expected ||
        !llvm::all_of(array,
                      [](Attribute a) { return isa<DictionaryAttr>(a); }))
      return emitOpError() << "expects '" << listName << "' to be an array of "
                           << uint64_t(expected) << " dictionaries";
  }
  if (isExternal())
    return success();
  if (!state->getRegion(0).hasOneBlock())
    return emitOpError("expects a body region with exactly one block");
  Block &entry = front();
  if (entry.getNumArguments() != type.getInputs().size())
    return emitOpError() << "entry block must have "
                         << uint64_t(type.getInputs().size())
                         << " arguments to match function signature";
  for (unsigned i = 0, e = entry.getNumArguments(); i != e; ++i)
    if (entry.getArgument(i).getType() != type.getInputs()[i])
      return emitOpError() << "type of entry block argument #" << i << '('
                           << entry.getArgument(i).getType()
                           << ") must match the type of the corresponding "
                              "argument in function signature("
                           << type.getInputs()[i] << ')';
  return success();
}

void FuncOp::print(OpAsmPrinter &p) {
  p << " ";
  if (auto vis = state->getAttrOfType<StringAttr>("sym_visibility"))
    p << vis.getValue() << " ";
  p.printSymbolName(getSymName());
  FunctionType type = getFunctionType();
  p << "(";
  for (unsigned i = 0, e = type.getInputs().size(); i != e; ++i) {
    if (i)
      p << ", ";
    DictionaryAttr attrs = getArgAttrDict(i);
    ArrayRef<NamedAttribute> list =
        attrs ? attrs.getValue() : ArrayRef<NamedAttribute>();
    if (isExternal()) {
      p.printType(type.getInputs()[i]);
      p.printOptionalAttrDict(list);
    } else {
      p.printRegionArgument(getArgument(i), list);
    }
  }
  p << ")";
  ArrayRef<Type> results = type.getResults();
  if (!results.empty()) {
    p << " -> ";
    bool parens = results.size() > 1 || isa<FunctionType>(results[0]) ||
                  getResultAttrDict(0);
    if (parens)
      p << "(";
    for (unsigned i = 0, e = results.size(); i != e; ++i) {
      if (i)
        p << ", ";
      p.printType(results[i]);
      if (DictionaryAttr attrs = getResultAttrDict(i))
        p.printOptionalAttrDict(attrs.getValue());
    }
    if (parens)
      p << ")";
  }
  p.printOptionalAttrDictWithKeyword(state->getAttrs(), getPropertyNames());
  if (!isExternal()) {
    p << " ";
    p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
}

/// Builds `arg_attrs`/`res_attrs` from per-entry dictionaries, or nothing if
/// all are empty, as MLIR does.
static void addAttrList(OperationState &result, StringRef name,
                        ArrayRef<DictionaryAttr> dicts) {
  if (llvm::all_of(dicts, [](DictionaryAttr d) { return !d || d.empty(); }))
    return;
  Context *ctx = result.getContext();
  SmallVector<Attribute, 4> list;
  for (DictionaryAttr d : dicts)
    list.push_back(d ? d : DictionaryAttr::getSorted(ctx, {}));
  result.addAttribute(name, ArrayAttr::get(ctx, list));
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  Context *ctx = result.getContext();
  StringRef visibility;
  for (StringRef keyword : {"private", "public", "nested"})
    if (succeeded(parser.parseOptionalKeyword(keyword)))
      visibility = keyword;
  if (!visibility.empty())
    result.addAttribute("sym_visibility", StringAttr::get(ctx, visibility));

  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  result.addAttribute("sym_name", name);

  llvm::SMLoc argsLoc = parser.getCurrentLocation();
  SmallVector<OpAsmParser::Argument, 4> args;
  if (parser.parseArgumentList(args, OpAsmParser::Delimiter::Paren,
                               /*allowAttrs=*/true))
    return failure();
  bool named = !args.empty() && !args.front().ssaName.name.empty();
  for (const OpAsmParser::Argument &arg : args)
    if (arg.ssaName.name.empty() == named)
      return parser.emitError(argsLoc,
                              "expected all arguments to be named or none");

  SmallVector<Type, 4> resultTypes;
  SmallVector<DictionaryAttr, 4> resultAttrs;
  if (succeeded(parser.parseOptionalArrow()) &&
      parser.parseFunctionResultTypes(resultTypes, resultAttrs))
    return failure();

  SmallVector<Type, 4> argTypes;
  SmallVector<DictionaryAttr, 4> argAttrs;
  for (const OpAsmParser::Argument &arg : args) {
    argTypes.push_back(arg.type);
    argAttrs.push_back(arg.attrs);
  }
  result.addAttribute("function_type", TypeAttr::get(FunctionType::get(
                                           ctx, argTypes, resultTypes)));
  addAttrList(result, "arg_attrs", argAttrs);
  addAttrList(result, "res_attrs", resultAttrs);

  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  Region *body = result.addRegion();
  llvm::SMLoc bodyLoc = parser.getCurrentLocation();
  bool parsedBody = false;
  if (parser.parseOptionalRegion(
          *body, named ? ArrayRef(args) : ArrayRef<OpAsmParser::Argument>(),
          &parsedBody))
    return failure();
  if (parsedBody && !named && !args.empty())
    return parser.emitError(bodyLoc,
                            "expected named arguments for a function body");
  if (parsedBody && body->empty())
    return parser.emitError(bodyLoc, "expected non-empty function body");
  return success();
}

//===----------------------------------------------------------------------===//
// func.return
//===----------------------------------------------------------------------===//

void ReturnOp::build(OpBuilder &, OperationState &state, ValueRange operands) {
  state.addOperands(operands);
}

LogicalResult ReturnOp::verify() {
  if (failed(verifyShape(*this, /*numRegions=*/0, /*variadicOperands=*/true)))
    return failure();
  auto func = dyn_cast_or_null<FuncOp>(state->getParentOp());
  if (!func)
    return emitOpError("expects parent op 'func.func'");
  ArrayRef<Type> results = func.getFunctionType().getResults();
  if (state->getNumOperands() != results.size())
    return emitOpError() << "has " << state->getNumOperands()
                         << " operands, but enclosing function (@"
                         << func.getSymName() << ") returns "
                         << uint64_t(results.size());
  for (unsigned i = 0, e = results.size(); i != e; ++i)
    if (state->getOperand(i).getType() != results[i])
      return emitError() << "type of return operand " << i << " ("
                         << state->getOperand(i).getType()
                         << ") doesn't match function result type ("
                         << results[i] << ") in function @"
                         << func.getSymName();
  return success();
}

void ReturnOp::print(OpAsmPrinter &p) {
  if (state->getNumOperands() == 0)
    return;
  p << " ";
  p.printOperands(state->getOperands());
  p << " : ";
  p.printTypes(state->getOperands().getTypes());
}

ParseResult ReturnOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand, 4> operands;
  SmallVector<Type, 4> types;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands))
    return failure();
  if (!operands.empty() && parser.parseColonTypeList(types))
    return failure();
  return parser.resolveOperands(operands, types, loc, result.operands);
}

} // namespace onyx
