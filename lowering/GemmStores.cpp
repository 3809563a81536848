//===- GemmStores.cpp - What the GEMM kernels share around the product ---===//
//
// The tiled GEMM kernel (TiledGemm.cpp), the matrix-vector kernels
// (Gemv.cpp, NBitsGemv.cpp) and the kernel adding a split k's partial sums
// (GemmDispatch.cpp) all end in storeC: the result's value (alpha, beta, C,
// bias), a fused epilogue, and the store into the result or into the parts
// of a Split the product writes. They also declare their operands alike,
// as vec4 buffers where the layout allows, within the target's binding
// range.
//
//===----------------------------------------------------------------------===//

#include "lowering/TiledGemm.h"

#include "lowering/Glsl.h"

#include <fmt/format.h>

namespace onyx::lowering {

namespace {

/// Short, as kernels spell many literals.
std::string (&u)(int64_t) = glsl::uintLiteral;

Type getResultElementType(const GemmProblem &p) {
  if (!p.epilogue)
    return p.elementType;
  return cast<RankedTensorType>(p.epilogue->result.getType()).getElementType();
}

} // namespace

SmallVector<GemmStoreInput> getGemmStoreInputs(const GemmProblem &p) {
  SmallVector<GemmStoreInput> inputs(p.storeInputs.begin(),
                                     p.storeInputs.end());
  if (p.epilogue)
    inputs.append(p.epilogue->inputs.begin(), p.epilogue->inputs.end());
  return inputs;
}

std::string generateSplitStores(ArrayRef<Value> parts,
                                ArrayRef<std::string> storeIndex,
                                Type resultType, StringRef index,
                                StringRef value) {
  // Each part's columns go to its own tensor: element (outer, c) of the
  // whole result is element (outer, c - first) of the part holding c.
  int64_t width = 0;
  for (Value part : parts)
    width += cast<RankedTensorType>(part.getType()).getShape().back();
  std::string stores = glsl::computeType(resultType) + " sv = " + value.str() +
                       "; uint so = " + index.str() + " / " + u(width) +
                       ", sc = " + index.str() + " % " + u(width) + ";";
  int64_t first = 0;
  for (auto [i, part] : llvm::enumerate(parts)) {
    int64_t partWidth =
        cast<RankedTensorType>(part.getType()).getShape().back();
    std::string at = "so * " + u(partWidth) + " + sc - " + u(first);
    if (i < storeIndex.size() && !storeIndex[i].empty())
      at = storeIndex[i];
    std::string store =
        glsl::store(resultType, fmt::format("y{}", i), at, "sv");
    first += partWidth;
    if (i + 1 < parts.size())
      stores += " if (sc < " + u(first) + ") { " + store + " } else";
    else
      stores += " { " + store + " }";
  }
  return stores;
}

std::string generateGemmStore(const GemmProblem &p, unsigned first) {
  KernelSizes &sizes = *p.sizes;
  std::string ct = glsl::computeType(p.elementType);
  std::string decls;
  unsigned binding = first;
  for (const GemmStoreInput &input : getGemmStoreInputs(p))
    decls += glsl::buffer(binding++, gpu::Access::Read, input.elementType,
                          input.name);
  Type resultType = getResultElementType(p);
  if (p.splitResults.empty())
    decls += glsl::buffer(binding, gpu::Access::Write, resultType, "y");
  for (size_t i = 0; i < p.splitResults.size(); ++i)
    decls += glsl::buffer(binding + i, gpu::Access::Write, resultType,
                          fmt::format("y{}", i));
  std::string body = "uint idx = " + p.outputIndex + "; " + p.outputValue;
  std::string value = "v";
  if (p.epilogue) {
    std::string code;
    SmallVector<Size> dims = p.resultDims;
    if (dims.empty())
      for (int64_t d :
           cast<RankedTensorType>(p.epilogue->result.getType()).getShape())
        dims.push_back(d);
    value = p.epilogue->write("v", "idx", sizes, dims, code);
    if (value.empty())
      return {};
    body += "\n" + code + " ";
  } else {
    body += " ";
  }
  std::string index = "idx";
  if (!p.storeIndex.empty()) {
    body += "uint sidx = " + p.storeIndex + "; ";
    index = "sidx";
  }
  std::string stores =
      p.splitResults.empty()
          ? glsl::store(resultType, "y", index, value)
          : generateSplitStores(p.splitResults, p.splitStoreIndex, resultType,
                                index, value);
  std::string fn = "void storeC(uint row, uint col, " + ct + " acc) { " + body +
                   stores + " }\n";
  return decls + p.globals + glsl::helpers(fn) + fn;
}

bool canLoadVectors(LoweringContext &ctx, Type elementType) {
  return elementType.isF32() &&
         ctx.getTarget().minStorageBufferOffsetAlignment % 16 == 0;
}

std::string vectorBuffer(unsigned binding, StringRef name) {
  std::string b = std::to_string(binding);
  return "layout(set = 0, binding = " + b + ", std430) readonly buffer B" + b +
         " { vec4 d[]; } " + name.str() + ";\n";
}

std::string vectorBufferElement(StringRef name, StringRef index) {
  std::string i = ("(" + index + ")").str();
  return name.str() + ".d[" + i + " / 4u][" + i + " % 4u]";
}

LogicalResult checkBindingSize(LoweringContext &ctx, RankedTensorType type) {
  uint64_t bytes = uint64_t(type.getNumElements()) *
                   getElementByteSize(type.getElementType());
  if (bytes <= ctx.getTarget().maxStorageBufferRange)
    return success();
  return ctx.emitError() << "operand of type " << type << " (" << bytes
                         << " bytes) exceeds the target's storage buffer "
                            "range of "
                         << ctx.getTarget().maxStorageBufferRange << " bytes";
}

} // namespace onyx::lowering
