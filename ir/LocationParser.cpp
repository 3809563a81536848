//===- LocationParser.cpp - Reading locations
//-------------------------------===//
//
// `loc(...)` specifiers: unknown, file:line:col, names, call sites, fused
// locations and aliases, including aliases defined after their use (resolved
// at the end of the file).
//
//===----------------------------------------------------------------------===//

#include "ir/ParserImpl.h"

using namespace onyx;
using namespace onyx::detail;

//===----------------------------------------------------------------------===//
// Parser: locations
//===----------------------------------------------------------------------===//

ParseResult Parser::parseLocationSpecifier(Location &loc, bool allowDeferred) {
  consume(); // loc
  if (failed(expect(Token::LParen, "expected '(' in location")))
    return failure();
  if (allowDeferred && tok.is(Token::HashIdentifier) && isAliasReference()) {
    StringRef alias = tok.getSpelling().drop_front();
    auto it = attrAliases.find(alias);
    if (it != attrAliases.end()) {
      loc = dyn_cast<Location>(it->second);
      if (!loc)
        return emitError("expected location, but found '") << it->second << "'";
    } else {
      // Defined later (mlir-opt prints location aliases after the module):
      // stand in a placeholder, one per alias, replaced at the end.
      auto [indexIt, inserted] =
          deferredLocIndex.try_emplace(alias, deferredLocs.size());
      if (inserted)
        deferredLocs.push_back(
            {NameLoc::get(StringAttr::get(ctx, tok.getSpelling())), alias,
             tok.getPtr()});
      loc = deferredLocs[indexIt->second].placeholder;
    }
    consume();
  } else if (failed(parseLocationInstance(loc))) {
    return failure();
  }
  return expect(Token::RParen, "expected ')' in location");
}

ParseResult Parser::parseLocationInstance(Location &loc) {
  NestingScope nest(*this);
  if (failed(checkNesting()))
    return failure();

  if (tok.is(Token::HashIdentifier)) {
    Attribute attr = parseExtendedAttr();
    if (!attr)
      return failure();
    loc = dyn_cast<Location>(attr);
    if (!loc)
      return emitError("expected location attribute, but got '") << attr << "'";
    return success();
  }

  if (tok.is(Token::String)) {
    std::string name(tok.getStringValue(stringStorage));
    consume();
    if (consumeIf(Token::Colon)) {
      unsigned line, column;
      if (tok.isNot(Token::Integer) || tok.getSpelling().getAsInteger(10, line))
        return emitError("expected integer line number in FileLineColLoc");
      consume();
      if (failed(expect(Token::Colon, "expected ':' in FileLineColLoc")))
        return failure();
      if (tok.isNot(Token::Integer) ||
          tok.getSpelling().getAsInteger(10, column))
        return emitError("expected integer column number in FileLineColLoc");
      consume();
      loc = FileLineColLoc::get(ctx, name, line, column);
      return success();
    }
    Location child;
    if (consumeIf(Token::LParen)) {
      if (failed(parseLocationInstance(child)) ||
          failed(expect(Token::RParen,
                        "expected ')' after child location of NameLoc")))
        return failure();
    }
    loc = NameLoc::get(StringAttr::get(ctx, name), child);
    return success();
  }

  if (consumeKeywordIf("unknown")) {
    loc = UnknownLoc::get(ctx);
    return success();
  }

  if (consumeKeywordIf("callsite")) {
    Location callee, caller;
    if (failed(expect(Token::LParen, "expected '(' in callsite location")) ||
        failed(parseLocationInstance(callee)))
      return failure();
    if (!consumeKeywordIf("at"))
      return emitError(wrongTokenLoc(), "expected 'at' in callsite location");
    if (failed(parseLocationInstance(caller)) ||
        failed(expect(Token::RParen, "expected ')' in callsite location")))
      return failure();
    loc = CallSiteLoc::get(callee, caller);
    return success();
  }

  if (consumeKeywordIf("fused")) {
    Attribute metadata;
    if (consumeIf(Token::Less)) {
      metadata = parseAttribute();
      if (!metadata ||
          failed(expect(Token::Greater,
                        "expected '>' after fused location metadata")))
        return failure();
    }
    SmallVector<Location, 4> locations;
    if (failed(expect(Token::LSquare, "expected '[' in fused location")))
      return failure();
    if (!consumeIf(Token::RSquare)) {
      do {
        Location element;
        if (failed(parseLocationInstance(element)))
          return failure();
        locations.push_back(element);
      } while (consumeIf(Token::Comma));
      if (failed(expect(Token::RSquare, "expected ']' in fused location")))
        return failure();
    }
    loc = FusedLoc::get(ctx, locations, metadata);
    return success();
  }

  return emitError(wrongTokenLoc(), "expected location instance");
}

ParseResult Parser::parseTrailingLocation(Operation *op) {
  if (!tok.isKeyword("loc"))
    return success();
  Location loc;
  if (failed(parseLocationSpecifier(loc, /*allowDeferred=*/true)))
    return failure();
  op->setLoc(loc);
  return success();
}

ParseResult Parser::resolveDeferredLocations(Operation *topLevel) {
  if (deferredLocs.empty())
    return success();
  llvm::DenseMap<Attribute, Location> resolved;
  for (const DeferredLoc &deferred : deferredLocs) {
    auto it = attrAliases.find(deferred.alias);
    if (it == attrAliases.end())
      return emitError(deferred.loc,
                       "operation location alias was never defined");
    auto loc = dyn_cast<Location>(it->second);
    if (!loc)
      return emitError(deferred.loc, "expected location, but found '")
             << it->second << "'";
    resolved[deferred.placeholder] = loc;
  }
  topLevel->walk([&](Operation *op) {
    if (Location loc = resolved.lookup(op->getLoc()))
      op->setLoc(loc);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (Location loc = resolved.lookup(arg.getLoc()))
            arg.setLoc(loc);
  });
  return success();
}
