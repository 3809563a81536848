//===- OperationParser.cpp - Reading operations
//-----------------------------===//
//
// SSA names (scoped per region, with placeholders for forward references),
// top-level aliases, the generic form of any op, regions and blocks. Custom
// forms go through CustomOpAsmParser.cpp.
//
//===----------------------------------------------------------------------===//

#include "ir/ParserImpl.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"

using namespace onyx;
using namespace onyx::detail;

//===----------------------------------------------------------------------===//
// Parser: SSA values
//===----------------------------------------------------------------------===//

void Parser::pushSSAScope(bool isolated) {
  regionIsolated.push_back(isolated);
  if (!isolated) {
    currentScope().nestedDefs.emplace_back();
    return;
  }
  if (numScopes == scopes.size())
    scopes.push_back(std::make_unique<IsolatedScope>());
  ++numScopes;
}

ParseResult Parser::popSSAScope() {
  IsolatedScope &scope = currentScope();
  if (!regionIsolated.pop_back_val()) {
    for (StringRef name : scope.nestedDefs.back())
      scope.erase(name);
    scope.nestedDefs.pop_back();
    return success();
  }
  if (!scope.forwardRefs.empty()) {
    const char *first = nullptr;
    for (auto &ref : scope.forwardRefs)
      if (!first || ref.second < first)
        first = ref.second;
    return emitError(first, "use of undeclared SSA value name");
  }
  scope.clear();
  --numScopes;
  return success();
}

ParseResult Parser::parseSSAUse(UnresolvedOperand &result) {
  if (tok.isNot(Token::PercentIdentifier))
    return emitError(wrongTokenLoc(), "expected SSA operand");
  result.location = tok.getLoc();
  result.name = tok.getSpelling();
  result.number = 0;
  consume();
  if (tok.is(Token::HashIdentifier)) {
    unsigned number;
    if (tok.getSpelling().drop_front().getAsInteger(10, number) ||
        number >= kMaxResultNumber)
      return emitError("invalid SSA value result number");
    result.number = number;
    consume();
  }
  return success();
}

Value Parser::resolveSSAUse(const UnresolvedOperand &use, Type type) {
  IsolatedScope &scope = currentScope();
  SSANameEntry &entry = scope.getEntry(use.name);
  if (use.number < entry.values.size()) {
    if (Value value = entry.values[use.number]) {
      if (value.getType() == type)
        return value;
      emitError(use.location.getPointer(),
                "use of value '" + use.name +
                    "' expects different type than prior uses: '")
          << type << "' vs '" << value.getType() << "'";
      return nullptr;
    }
  } else if (entry.defLoc) {
    return nullError(use.location.getPointer(),
                     "reference to invalid result number");
  }
  if (use.number >= entry.values.size())
    entry.values.resize(use.number + 1);
  Value placeholder = forwardRefBlock.addArgument(type, UnknownLoc::get(ctx));
  entry.values[use.number] = placeholder;
  scope.forwardRefs[placeholder.getImpl()] = use.location.getPointer();
  return placeholder;
}

ParseResult Parser::defineValues(StringRef name, ValueRange values,
                                 const char *loc) {
  IsolatedScope &scope = currentScope();
  SSANameEntry &entry = scope.getEntry(name);
  if (entry.defLoc) {
    InFlightDiagnostic diag =
        emitError(loc, "redefinition of SSA value '" + name + "'");
    diag.attachNote(getLocation(entry.defLoc)) << "previously defined here";
    return failure();
  }
  // Replace the placeholders of earlier uses.
  for (size_t i = 0, e = entry.values.size(); i < e; ++i) {
    Value placeholder = entry.values[i];
    if (!placeholder)
      continue;
    const char *useLoc = scope.forwardRefs.lookup(placeholder.getImpl());
    if (i >= values.size())
      return emitError(useLoc, "reference to invalid result number");
    Value value = values[i];
    if (value.getType() != placeholder.getType()) {
      InFlightDiagnostic diag =
          emitError(loc, "definition of SSA value '" + name + "#" +
                             llvm::Twine(i) + "' has type '");
      diag << value.getType() << "'";
      diag.attachNote(getLocation(useLoc))
          << "previously used here with type '" << placeholder.getType() << "'";
      return failure();
    }
    placeholder.replaceAllUsesWith(value);
    scope.forwardRefs.erase(placeholder.getImpl());
  }
  entry.values.assign(values.begin(), values.end());
  entry.defLoc = loc;
  if (!scope.nestedDefs.empty())
    scope.nestedDefs.back().push_back(name);
  return success();
}

//===----------------------------------------------------------------------===//
// Parser: operations and regions
//===----------------------------------------------------------------------===//

ParseResult Parser::parseAttributeAliasDef() {
  StringRef name = tok.getSpelling().drop_front();
  if (name.contains('.'))
    return emitError("attribute names with a '.' are reserved for "
                     "dialect-defined names");
  if (attrAliases.count(name))
    return emitError("redefinition of attribute alias id '" + name + "'");
  consume();
  if (failed(
          expect(Token::Equal, "expected '=' in attribute alias definition")))
    return failure();
  Attribute value = parseAttribute();
  if (!value)
    return failure();
  attrAliases[name] = value;
  return success();
}

ParseResult Parser::parseTypeAliasDef() {
  StringRef name = tok.getSpelling().drop_front();
  if (name.contains('.'))
    return emitError("type names with a '.' are reserved for "
                     "dialect-defined names");
  if (typeAliases.count(name))
    return emitError("redefinition of type alias id '" + name + "'");
  consume();
  if (failed(expect(Token::Equal, "expected '=' in type alias definition")))
    return failure();
  Type value = parseType();
  if (!value)
    return failure();
  typeAliases[name] = value;
  return success();
}

ParseResult Parser::parseTopLevelItems(Block *block) {
  while (true) {
    switch (tok.getKind()) {
    case Token::Eof:
      return success();
    case Token::HashIdentifier:
      if (failed(parseAttributeAliasDef()))
        return failure();
      break;
    case Token::ExclamationIdentifier:
      if (failed(parseTypeAliasDef()))
        return failure();
      break;
    default:
      if (failed(parseOperation(block)))
        return failure();
      break;
    }
  }
}

ParseResult Parser::parseOperation(Block *block) {
  const char *opLoc = tok.getPtr();
  SmallVector<ResultGroup, 1> results;
  uint64_t numBound = 0;
  if (tok.is(Token::PercentIdentifier)) {
    do {
      if (tok.isNot(Token::PercentIdentifier))
        return emitError("expected SSA result name");
      ResultGroup group{tok.getSpelling(), 1, tok.getPtr()};
      consume();
      if (consumeIf(Token::Colon)) {
        if (tok.isNot(Token::Integer) ||
            tok.getSpelling().getAsInteger(10, group.count))
          return emitError("expected integer number of results");
        if (group.count == 0)
          return emitError("expected named operation to have at least 1 "
                           "result");
        consume();
      }
      numBound += group.count;
      results.push_back(group);
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::Equal, "expected '=' after SSA name")))
      return failure();
  }

  // Nesting counts the implicit module around top-level ops (parseModule)
  // but not a module at the top of the file or directly inside one (two at
  // most): that is where the printer writes the implicit module out, and
  // IR that parses at the limit must print to text that parses again.
  std::string nameStorage;
  bool freeModule = depth <= 1 && freeModules < 2 &&
                    ((tok.is(Token::BareIdentifier) &&
                      (tok.getSpelling() == "module" ||
                       tok.getSpelling() == "builtin.module")) ||
                     (tok.is(Token::String) &&
                      tok.getStringValue(nameStorage) == "builtin.module"));
  if (freeModule) {
    --depth;
    ++freeModules;
  }
  auto countModule = llvm::make_scope_exit([&] {
    if (freeModule) {
      ++depth;
      --freeModules;
    }
  });
  Operation *op;
  if (tok.is(Token::String))
    op = parseGenericOperation(block);
  else if (tok.is(Token::BareIdentifier))
    op = parseCustomOperation(block);
  else
    return emitError(wrongTokenLoc(), "expected operation name in quotes");
  if (!op)
    return failure();

  if (results.empty())
    return success();
  if (numBound != op->getNumResults())
    return emitError(opLoc, "operation defines " +
                                llvm::Twine(op->getNumResults()) +
                                " results but was provided " +
                                llvm::Twine(numBound) + " to bind");
  ValueRange values = op->getResults();
  unsigned next = 0;
  for (const ResultGroup &group : results) {
    if (failed(defineValues(group.name, values.slice(next, group.count),
                            group.loc)))
      return failure();
    next += group.count;
  }
  return success();
}

OpInfo *Parser::lookupGenericOpInfo(StringRef name, const char *loc) {
  if (OpInfo *info = ctx->lookupRegisteredOp(name))
    return info;
  StringRef ns = name.split('.').first;
  if (Dialect *dialect = ctx->getLoadedDialect(ns)) {
    if (dialect->allowsUnknownOperations())
      return ctx->getOrCreateOpInfo(name);
    return nullError(loc, "unregistered operation '" + name +
                              "' found in dialect ('" + ns +
                              "') that does not allow unknown operations");
  }
  if (!ctx->allowsUnregisteredDialects()) {
    return nullError(loc, "operation '" + name + "' of unregistered dialect '" +
                              ns +
                              "'. If this is intended, use "
                              "--allow-unregistered-dialect");
  }
  return ctx->getOrCreateOpInfo(name);
}

detail::PendingOperation::~PendingOperation() {
  if (created)
    return;
  for (std::unique_ptr<Region> &region : state.regions)
    region->dropAllReferences();
}

Operation *detail::PendingOperation::create(Block *block) {
  Operation *op = Operation::create(state);
  created = true;
  block->push_back(op);
  return op;
}

Operation *Parser::parseGenericOperation(Block *block) {
  const char *nameLoc = tok.getPtr();
  OpInfo *&cached = opInfoCache[tok.getSpelling()];
  if (!cached) {
    StringRef name = tok.getStringValue(stringStorage);
    if (name.empty()) {
      return nullError("empty operation name is invalid");
    }
    if (name.contains('\0')) {
      return nullError("null character not allowed in operation name");
    }
    cached = lookupGenericOpInfo(name, nameLoc);
    if (!cached) {
      opInfoCache.erase(tok.getSpelling());
      return nullptr;
    }
  }
  OpInfo *info = cached;
  consume();

  PendingOperation pending(getLocation(nameLoc), OperationName(info));
  OperationState &state = pending.state;

  SmallVector<UnresolvedOperand, 4> operands;
  if (failed(expect(Token::LParen, "expected '(' to start operand list")))
    return nullptr;
  if (tok.is(Token::PercentIdentifier)) {
    do {
      UnresolvedOperand operand;
      if (failed(parseSSAUse(operand)))
        return nullptr;
      operands.push_back(operand);
    } while (consumeIf(Token::Comma));
  }
  if (failed(expect(Token::RParen, "expected ')' to end operand list")))
    return nullptr;
  if (tok.is(Token::LSquare)) {
    return nullError("block successors are not supported");
  }

  // Properties `<{...}>` are read as ordinary attributes.
  if (consumeIf(Token::Less)) {
    if (tok.isNot(Token::LBrace)) {
      return nullError("expected '{' to start properties");
    }
    if (failed(parseAttributeDict(state.attributes)) ||
        failed(expect(Token::Greater, "expected '>' to close properties")))
      return nullptr;
  }

  if (consumeIf(Token::LParen)) {
    bool isolated = info->hasTrait(OpTrait::IsolatedFromAbove);
    do {
      if (failed(parseRegion(*state.addRegion(), {}, isolated)))
        return nullptr;
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::RParen, "expected ')' to end region list")))
      return nullptr;
  }

  if (tok.is(Token::LBrace) && failed(parseAttributeDict(state.attributes)))
    return nullptr;

  if (failed(expect(Token::Colon, "expected ':' followed by operation type")))
    return nullptr;
  const char *typeLoc = tok.getPtr();
  Type type = parseType();
  if (!type)
    return nullptr;
  auto fnType = dyn_cast<FunctionType>(type);
  if (!fnType) {
    return nullError(typeLoc, "expected function type");
  }
  ArrayRef<Type> inputs = fnType.getInputs();
  if (inputs.size() != operands.size()) {
    return nullError(typeLoc, "expected " + llvm::Twine(operands.size()) +
                                  " operand type" +
                                  (operands.size() == 1 ? "" : "s") +
                                  " but had " + llvm::Twine(inputs.size()));
  }
  for (size_t i = 0, e = operands.size(); i < e; ++i) {
    Value value = resolveSSAUse(operands[i], inputs[i]);
    if (!value)
      return nullptr;
    state.operands.push_back(value);
  }
  state.addTypes(fnType.getResults());

  Operation *op = pending.create(block);
  if (failed(parseTrailingLocation(op)))
    return nullptr;
  return op;
}

OpInfo *Parser::lookupCustomOpInfo(StringRef name, const char *loc) {
  if (OpInfo *info = ctx->lookupRegisteredOp(name))
    return info;
  if (!name.contains('.')) {
    // As in MLIR, a name without a dialect belongs to the default dialect of
    // the nearest op in custom form around it (`return` in func.func's body
    // is func.return); at the top level, builtin's.
    StringRef ns = defaultDialects.back();
    if (ns.empty())
      return nullError(loc, "custom op '" + name + "' is unknown");
    llvm::SmallString<64> qualified(ns);
    qualified += '.';
    qualified += name;
    if (OpInfo *info = ctx->lookupRegisteredOp(qualified))
      return info;
    return nullError(loc, "custom op '" + name + "' is unknown (tried '" +
                              qualified + "' as well)");
  }
  StringRef ns = name.split('.').first;
  if (!ctx->getLoadedDialect(ns))
    return nullError(loc, "Dialect `" + ns + "' not found for custom op '" +
                              name + "'");
  return nullError(loc, "custom op '" + name + "' is unknown");
}

ParseResult Parser::parseRegion(Region &region,
                                ArrayRef<OpAsmParser::Argument> entryArgs,
                                bool isolated) {
  NestingScope nest(*this);
  if (failed(checkNesting()) ||
      failed(expect(Token::LBrace, "expected '{' to begin a region")))
    return failure();
  pushSSAScope(isolated);

  if (tok.is(Token::RBrace) && entryArgs.empty()) {
    consume();
    return popSSAScope();
  }

  llvm::SmallDenseSet<StringRef, 4> blockNames;
  Block *block = region.emplaceBlock();
  if (!entryArgs.empty()) {
    if (tok.is(Token::CaretIdentifier))
      return emitError("invalid block name in region with named arguments");
    for (const OpAsmParser::Argument &arg : entryArgs) {
      const char *argLoc = arg.ssaName.location.getPointer();
      Location loc = arg.sourceLoc ? *arg.sourceLoc : getLocation(argLoc);
      BlockArgument value = block->addArgument(arg.type, loc);
      if (arg.ssaName.name.empty())
        continue;
      if (currentScope().getEntry(arg.ssaName.name).defLoc)
        return emitError(argLoc, "region entry argument '" + arg.ssaName.name +
                                     "' is already in use");
      if (failed(defineValues(arg.ssaName.name, Value(value), argLoc)))
        return failure();
    }
  } else if (tok.is(Token::CaretIdentifier) &&
             failed(parseBlockHeader(block, blockNames))) {
    return failure();
  }

  while (!consumeIf(Token::RBrace)) {
    if (tok.is(Token::CaretIdentifier)) {
      block = region.emplaceBlock();
      if (failed(parseBlockHeader(block, blockNames)))
        return failure();
      continue;
    }
    if (failed(parseOperation(block)))
      return failure();
  }
  return popSSAScope();
}

ParseResult Parser::parseBlockHeader(Block *block,
                                     llvm::SmallDenseSet<StringRef, 4> &names) {
  StringRef name = tok.getSpelling();
  if (!names.insert(name).second)
    return emitError("redefinition of block '" + name + "'");
  consume();
  if (consumeIf(Token::LParen) && !consumeIf(Token::RParen)) {
    do {
      if (tok.isNot(Token::PercentIdentifier))
        return emitError("expected SSA identifier");
      StringRef argName = tok.getSpelling();
      const char *argLoc = tok.getPtr();
      consume();
      if (failed(expect(Token::Colon, "expected ':' and type for SSA operand")))
        return failure();
      Type type = parseType();
      if (!type)
        return failure();
      Location loc = getLocation(argLoc);
      if (tok.isKeyword("loc") &&
          failed(parseLocationSpecifier(loc, /*allowDeferred=*/true)))
        return failure();
      if (failed(defineValues(argName, Value(block->addArgument(type, loc)),
                              argLoc)))
        return failure();
    } while (consumeIf(Token::Comma));
    if (failed(expect(Token::RParen, "expected ')' to end argument list")))
      return failure();
  }
  return expect(Token::Colon, "expected ':' after block name");
}
