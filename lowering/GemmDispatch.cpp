//===- GemmDispatch.cpp - Choosing and dispatching the GEMM kernels -------===//
//
// dispatchGemm (TiledGemm.h) turns a GemmProblem into dispatches: the
// matrix-vector kernel (Gemv.cpp) for products of few rows, the tiled one
// (TiledGemm.cpp) with k whole or split among workgroups plus the kernel
// that adds the partial sums, or, where sizes are known only at run time,
// several of these with grids the run's sizes zero but for one: one variant
// per class of few rows (kRowClassBounds), as specialized kernels of those
// rows would be, and the tiles for many rows with k split or whole.
//
//===----------------------------------------------------------------------===//

#include "lowering/Glsl.h"
#include "lowering/TiledGemm.h"

namespace onyx::lowering {

namespace {

/// The kernel that adds the partial sums of each output (binding 0) in
/// order of the split and stores the result.
std::string generateReductionKernel(const GemmProblem &p,
                                    const GemmSplit &split, uint32_t wg,
                                    const std::string &store) {
  KernelSizes &sizes = *p.sizes;
  LoweringContext &ctx = sizes.getContext();
  auto S = [&](Size size) { return sizes.get(size); };
  Size mn = ctx.mul(p.m, p.n);
  std::string s = glsl::header({wg, 1, 1});
  s += "layout(set = 0, binding = 0, std430) readonly buffer B0 { float d[]; "
       "} partial;\n";
  s += store;
  s += "void main() {\n";
  s += "  uint i = gl_GlobalInvocationID.x;\n";
  s += "  if (i >= " + S(ctx.mul(mn, p.batch)) + ") return;\n";
  s += "  uint z = i / " + S(mn) + ", rc = i % " + S(mn) + ";\n";
  s += p.prologue;
  // splits * mn spelled in the GLSL: the kernels of one problem share
  // their push constants, and each class of rows has splits of its own.
  s += "  uint pi = z * " + S(split.splits) + " * " + S(mn) + " + rc;\n";
  s += "  float acc = partial.d[pi];\n";
  s += "  for (uint s = 1u; s < " + S(split.splits) + "; ++s)\n";
  s += "    acc += partial.d[pi + s * " + S(mn) + "];\n";
  s += "  storeC(rc / " + S(p.n) + ", rc % " + S(p.n) + ", acc);\n";
  s += "}\n";
  return s;
}

/// How one product of static sizes is tiled and how its k is shared: the
/// tile chooseGemmTile chooses, k split among workgroups by
/// chooseGemmSplit's rule, or, where that would split a cheap enough tile,
/// shared among the threads of one workgroup instead (chooseGemmKGroups).
struct GemmShape {
  GemmTile tile;
  GemmSplit split;

  bool operator==(const GemmShape &o) const {
    const GemmTile &a = tile, &b = o.tile;
    return a.bm == b.bm && a.bn == b.bn && a.bk == b.bk && a.tm == b.tm &&
           a.tn == b.tn && a.kGroups == b.kGroups &&
           split.splits.constant == o.split.splits.constant &&
           split.chunk.constant == o.split.chunk.constant;
  }
};

GemmShape chooseStaticGemm(const GemmProblem &problem,
                           const gpu::TargetDesc &target) {
  GemmShape shape;
  shape.tile = chooseGemmTile(problem, target);
  shape.split = chooseGemmSplit(problem, shape.tile, target);
  // A product whose tiles are small enough stays one dispatch, sharing k
  // among the threads of a workgroup rather than among workgroups.
  if (shape.split.isSplit()) {
    GemmTile grouped = chooseGemmKGroups(problem, shape.tile, target);
    if (grouped.kGroups > 1) {
      shape.tile = grouped;
      shape.split = {};
    }
  }
  return shape;
}

/// The upper bounds of the classes of rows a product whose m is known only
/// at run time gets kernels of its own for (the rest share kernels tiled
/// for kNominalDim rows, and the run decides whether they split k). The
/// static rules see m only through the tile's rows, powerOf2Ceil(m) up to
/// 128, and the count of tiles, ceil(m / bm) times the columns' tiles: for
/// each class (bound / 2, bound] (the first from 0 or from the
/// matrix-vector kernel's 4 rows), the tile and the split of k chosen for
/// `bound` rows are those a product specialized to any m of the class
/// gets. Prompts of up to 64 tokens (where the large tiles would compute
/// mostly padding and split k into a second dispatch a small product does
/// not need) are covered, in 4 classes at most; neighbouring classes that
/// choose alike share one kernel and one condition. Products whose large
/// tile sums its whole k in less than a dispatch costs (isCheapGemmTile:
/// a smaller tile would save at most that) keep the one tiled kernel.
constexpr int64_t kRowClassBounds[] = {8, 16, 32, 64};

/// A kernel of a GEMM and the grid and operands it is dispatched with.
struct GemmDispatch {
  KernelSpec spec;
  std::array<Size, 3> grid;
  SmallVector<Value> views;
};

} // namespace

SmallVector<Value, 3>
allocateSplitParts(LoweringContext &ctx, KernelSizes &sizes,
                   ArrayRef<Value> parts, ArrayRef<Size> resultDims,
                   SmallVectorImpl<std::string> &storeIndex) {
  SmallVector<Value, 3> ys;
  storeIndex.assign(parts.size(), "");
  int64_t firstColumn = 0;
  for (auto [i, part] : llvm::enumerate(parts)) {
    auto partType = cast<RankedTensorType>(part.getType());
    int64_t partFirst = firstColumn;
    firstColumn += partType.getShape().back();
    SmallVector<Size> dims(resultDims);
    if (!dims.empty())
      dims.back() = partType.getShape().back();
    else
      dims.assign(partType.getShape().begin(), partType.getShape().end());
    // A key's or value's rows go straight into the decoder's cache.
    if (std::optional<CacheRowsStore> cache = storeIntoCache(ctx, part, dims)) {
      ys.push_back(cache->state);
      std::string column = "sc - " + std::to_string(partFirst) + "u";
      storeIndex[i] = cache->index(sizes, "so", column);
      continue;
    }
    ys.push_back(ctx.allocate(partType, dims));
    ctx.setResult(part, ys.back());
  }
  return ys;
}

LogicalResult dispatchGemm(LoweringContext &ctx, StringRef name,
                           const GemmProblem &original, Value a, Value b,
                           Value result, GemmOutputs *outputs) {
  GemmProblem problem = original;
  KernelSizes ownSizes(ctx);
  if (!problem.sizes)
    problem.sizes = &ownSizes;
  KernelSizes &sizes = *problem.sizes;
  if (problem.epilogue)
    result = problem.epilogue->result;
  auto resultType = cast<RankedTensorType>(result.getType());
  if (resultType.hasStaticShape() && failed(checkBindingSize(ctx, resultType)))
    return failure();
  // The result, or the parts of it that a Split names (each the result's
  // dims but for the last).
  SmallVector<Value, 3> ys;
  if (problem.splitResults.empty()) {
    // A key's or value's rows go straight into the decoder's cache.
    std::optional<CacheRowsStore> cache;
    if (problem.resultDims.size() == 3 && problem.storeIndex.empty())
      cache = storeIntoCache(ctx, result, problem.resultDims);
    if (cache) {
      ys.push_back(cache->state);
      problem.storeIndex = cache->index(sizes, "row", "col");
    } else {
      ys.push_back(ctx.allocate(resultType, problem.resultDims));
      ctx.setResult(result, ys.back());
    }
  }
  ys.append(allocateSplitParts(ctx, sizes, problem.splitResults,
                               problem.resultDims, problem.splitStoreIndex));
  if (outputs)
    *outputs = {ys, problem.storeIndex, problem.splitStoreIndex};
  if (problem.m.isZero() || problem.n.isZero() || problem.batch.isZero())
    return success();
  if (problem.k.isZero())
    return ctx.emitError() << "has an empty inner dimension, which the GEMM "
                              "kernel does not handle";
  SmallVector<GemmStoreInput> storeInputs = getGemmStoreInputs(problem);
  unsigned maxBindings = ctx.getTarget().maxPerStageDescriptorStorageBuffers;
  SmallVector<Value> storeViews = {};
  SmallVector<gpu::Access> storeAccesses;
  for (const GemmStoreInput &input : storeInputs) {
    if (!input.view)
      return failure();
    storeViews.push_back(input.view);
    storeAccesses.push_back(gpu::Access::Read);
  }
  for (Value y : ys) {
    storeViews.push_back(y);
    storeAccesses.push_back(gpu::Access::Write);
  }

  // The kernels that load A and B bind the load functions' inputs after
  // them.
  SmallVector<Value> operandViews = {a, b};
  SmallVector<gpu::Access> operandAccesses = {gpu::Access::Read,
                                              gpu::Access::Read};
  for (const GemmStoreInput &input : problem.loadInputs) {
    if (!input.view)
      return failure();
    operandViews.push_back(input.view);
    operandAccesses.push_back(gpu::Access::Read);
  }
  unsigned firstStore = operandViews.size();
  if (storeInputs.size() + firstStore + ys.size() > maxBindings)
    return ctx.emitError() << "needs "
                           << storeInputs.size() + firstStore + ys.size()
                           << " storage buffers, more than the target's "
                           << maxBindings;

  // The kernels are generated first: they share one block of push
  // constants, complete only once all of them spelled their sizes.
  SmallVector<GemmDispatch, 4> dispatches;
  if (!problem.directBody.empty()) {
    uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
    std::string store = generateGemmStore(problem, firstStore);
    if (store.empty())
      return failure();
    GemmDispatch &d = dispatches.emplace_back();
    d.spec.name = name.str();
    d.spec.glsl = glsl::header({wg, 1, 1}) + problem.declarations + store +
                  problem.functions + "void main() {\n" +
                  "  uint z = gl_WorkGroupID.z;\n" + problem.prologue +
                  "  uint i = gl_GlobalInvocationID.x;\n  if (i >= " +
                  sizes.get(problem.directInvocations) + ") return;\n" +
                  problem.directBody + "}\n";
    d.spec.bindings = operandAccesses;
    d.spec.bindings.append(storeAccesses.begin(), storeAccesses.end());
    d.spec.workgroupSize = {wg, 1, 1};
    d.views = operandViews;
    d.views.append(storeViews.begin(), storeViews.end());
    d.grid = {ctx.ceilDiv(problem.directInvocations, int64_t(wg)), 1,
              problem.batch};
  }
  GemvShape gemv = problem.directBody.empty() && !problem.fewRowsByCaller
                       ? chooseGemv(problem, ctx.getTarget())
                       : GemvShape();
  // With m known only at run time, both kernels are dispatched and the
  // run's m zeroes one grid: at most 4 rows (a decode step) take the
  // matrix-vector kernel, more (a prefill) the tiled one.
  bool both = (gemv.use || problem.fewRowsByCaller) && !problem.m.isStatic();
  Size gemvGate = 1, tiledGate = 1;
  if (both) {
    // large = min(max(m - 4, 0), 1); an empty m dispatches neither.
    // One statement per host op: the order of a call's arguments is
    // unspecified, and the IR must not depend on the compiler.
    tiledGate = ctx.broadcastFactor(ctx.sub(problem.m, 3));
    Size nonEmpty = ctx.min(problem.m, Size(int64_t(1)));
    gemvGate = ctx.mul(ctx.sub(1, tiledGate), nonEmpty);
  }
  auto addGemv = [&](const GemmProblem &rows, Size gate) -> LogicalResult {
    std::string store = generateGemmStore(rows, firstStore);
    if (store.empty())
      return failure();
    GemmDispatch &d = dispatches.emplace_back();
    d.spec.name = name.str();
    d.spec.glsl = generateGemvKernel(rows, gemv, store);
    d.spec.bindings = operandAccesses;
    d.spec.bindings.append(storeAccesses.begin(), storeAccesses.end());
    d.spec.workgroupSize = {gemv.threads, 1, 1};
    d.views = operandViews;
    d.views.append(storeViews.begin(), storeViews.end());
    d.grid = {ctx.mul(ctx.ceilDiv(problem.n, int64_t(gemv.cols)), gate), 1,
              problem.batch};
    return success();
  };
  if (gemv.use && both) {
    // A decode step's single row takes a kernel of its own: the form for up
    // to 4 rows carries 4 accumulators and a branch per row through its
    // inner loop.
    GemmProblem oneRow = problem;
    oneRow.m = Size(int64_t(1));
    Size isOne = ctx.arith("gpu.eqi", problem.m, Size(int64_t(1)));
    if (failed(addGemv(oneRow, isOne)) ||
        failed(addGemv(problem, ctx.sub(gemvGate, isOne))))
      return failure();
  } else if (gemv.use && failed(addGemv(problem, gemvGate))) {
    return failure();
  }

  // The tiled kernel with k split (and the kernel adding the partial sums)
  // or whole; `gate` multiplies the grids.
  auto addTiled = [&](const GemmTile &tile, const GemmSplit &split,
                      Size gate) -> LogicalResult {
    GemmDispatch d;
    d.grid = {ctx.mul(ctx.ceilDiv(problem.n, int64_t(tile.bn)), gate),
              ctx.ceilDiv(problem.m, int64_t(tile.bm)),
              ctx.mul(problem.batch, split.splits)};
    d.spec.name = name.str();
    d.spec.glsl = generateGemmKernel(problem, tile, split);
    if (d.spec.glsl.empty())
      return failure();
    d.spec.bindings = operandAccesses;
    d.spec.workgroupSize = {tile.getNumThreads(), 1, 1};
    d.views = operandViews;
    if (!split.isSplit()) {
      d.spec.bindings.append(storeAccesses.begin(), storeAccesses.end());
      d.views.append(storeViews.begin(), storeViews.end());
      dispatches.push_back(std::move(d));
      return success();
    }
    // Partial sums [batch, splits, m, n]; none (one element) in runs that
    // do not split.
    Size matrix = ctx.mul(problem.m, problem.n);
    Size partials = ctx.mul(ctx.mul(problem.batch, split.splits), matrix);
    auto f32 = FloatType::getF32(ctx.getContext());
    Value partial;
    if (partials.isStatic() && gate.isStatic()) {
      partial = ctx.allocate(RankedTensorType::get({partials.constant}, f32));
    } else {
      partials = ctx.atLeast(ctx.mul(partials, gate), 1);
      partial = ctx.allocate(RankedTensorType::get({ShapedType::kDynamic}, f32),
                             {partials});
    }
    d.spec.bindings.push_back(gpu::Access::Write);
    d.views.push_back(partial);
    dispatches.push_back(std::move(d));

    std::string store = generateGemmStore(problem, 1);
    if (store.empty())
      return failure();
    uint32_t wg = glsl::linearWorkgroupSize(ctx.getTarget());
    GemmDispatch r;
    r.spec.name = name.str() + "_reduce";
    r.spec.glsl = generateReductionKernel(problem, split, wg, store);
    r.spec.bindings = {gpu::Access::Read};
    r.spec.bindings.append(storeAccesses.begin(), storeAccesses.end());
    r.spec.workgroupSize = {wg, 1, 1};
    r.views = {partial};
    r.views.append(storeViews.begin(), storeViews.end());
    r.grid = {ctx.mul(ctx.ceilDiv(
                          ctx.mul(problem.batch, ctx.mul(problem.m, problem.n)),
                          int64_t(wg)),
                      gate),
              1, 1};
    dispatches.push_back(std::move(r));
    return success();
  };

  if (problem.directBody.empty() && (!gemv.use || both)) {
    if (isStatic(problem)) {
      GemmShape shape = chooseStaticGemm(problem, ctx.getTarget());
      if (failed(addTiled(shape.tile, shape.split, tiledGate)))
        return failure();
    } else {
      // Where only m is known at run time, the classes of few rows get the
      // kernels specialized ones of their sizes would (kRowClassBounds),
      // each dispatched where the run's m is in its class.
      GemmTile tile = chooseGemmTile(problem, ctx.getTarget());
      Size large = tiledGate;
      if (problem.n.isStatic() && problem.k.isStatic() &&
          problem.batch.isStatic() && !isCheapGemmTile(problem, tile)) {
        int64_t low = both ? 4 : 0;
        SmallVector<std::pair<int64_t, GemmShape>, 4> classes;
        for (int64_t bound : kRowClassBounds) {
          if (bound <= low)
            continue;
          GemmProblem rows = problem;
          rows.m = Size(bound);
          GemmShape shape = chooseStaticGemm(rows, ctx.getTarget());
          if (!classes.empty() && classes.back().second == shape)
            classes.back().first = bound;
          else
            classes.push_back({bound, shape});
        }
        for (auto &[bound, shape] : classes) {
          // low < m <= bound (one statement per host op, as above).
          Size atMostBound = ctx.arith("gpu.lei", problem.m, Size(bound));
          Size aboveLow = ctx.arith("gpu.lti", Size(low), problem.m);
          Size gate = ctx.mul(aboveLow, atMostBound);
          if (failed(addTiled(shape.tile, shape.split, gate)))
            return failure();
          low = bound;
        }
        large = ctx.arith("gpu.lti", Size(low), problem.m);
      }
      // More rows: tiles for kNominalDim rows, and the run decides whether
      // k is split, by chooseGemmSplit's rule: both forms are dispatched,
      // one of them with empty grids.
      GemmSplit split = chooseDynamicGemmSplit(ctx, problem, tile);
      Size whole = large;
      if (split.isSplit()) {
        if (failed(addTiled(tile, split, ctx.mul(large, split.gate))))
          return failure();
        whole = ctx.mul(large, ctx.sub(1, split.gate));
      }
      if (failed(addTiled(tile, {}, whole)))
        return failure();
    }
  }

  std::string declaration = sizes.declaration();
  for (GemmDispatch &d : dispatches) {
    glsl::insertAfterHeader(d.spec.glsl, declaration);
    SmallVector<OpFoldResult> push;
    sizes.addTo(d.spec, push);
    KernelRef kernel = ctx.getOrCreateKernel(d.spec);
    if (sizes.isDynamic() ||
        !llvm::all_of(d.grid, [](Size size) { return size.isStatic(); })) {
      ctx.dispatch(kernel, d.grid, d.views, push);
      continue;
    }
    ctx.dispatch(kernel,
                 {uint64_t(d.grid[0].constant), uint64_t(d.grid[1].constant),
                  uint64_t(d.grid[2].constant)},
                 d.views);
  }
  return success();
}

} // namespace onyx::lowering
