// The column model (BuoyancyModel::Columns): its substep as its stages in
// order (docs/columns.md, "The substep"), its state, and its drawing.
#include "columns/column_soa.hpp"
#include "columns/column_substep.hpp"
#include "hull/hull_access.hpp"
#include "substep/model.hpp"
#include "substep/profile.hpp"
#include "substep/velocity_change.hpp"

#include <LinearMath/btIDebugDraw.h>

namespace keel::KEEL_ABI::detail {
namespace {

class ColumnModel final : public ModelState {
 public:
  bool run(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s, double t_s) override {
    const HullSoA& points = soaOf(*boat.columns).points;
    if (!own_.fits(points)) fit(boat);  // the test inline: a call only to grow
    hintMemory(state);
    const SubstepPlan plan = timedPlan(planColumns, boat, state);
    Substep s(threadBuffers(points), plan, dt_s, t_s, state.profile.get());
    if (!findWater(boat, state, own_.water, body, s, points)) return skipSubstep(state, s.flags);
    columnBuoyancy(boat, state, own_, s);
    waterInertia(boat, state, own_.water, body, s, points);
    if (plan.damping && state.anyWet) {
      state.termsCleared = false;
      columnRelativeVelocity(boat, state, body, s);
      extraDamping(boat, state, body, s);
      clampDrag(boat, state, body, s);
    }
    floodwater(boat, state, body, s);                  // the compartments flood on either model
    if (state.effects) effects(boat, state, body, s);  // splash and flooding: columns have no waterline
    return velocityChange(boat, state, own_.water, body, s);
  }

  std::unique_ptr<ModelState> clone() const override { return std::make_unique<ColumnModel>(*this); }
  void assign(const ModelState& from) override { own_ = static_cast<const ColumnModel&>(from).own_; }

  void fit(const BoatModel& boat) override { own_.fit(*boat.columns); }

  void debugDraw(const BoatModel& boat, const BoatState& state, btIDebugDraw& drawer) const override;

  std::span<const btScalar> immersion() const override { return own_.fraction; }

 private:
  void forgetHistory() override { own_.water.havePrevious = false; }

  /// This state, its arrays and the patch's samples, each a heap
  /// allocation of its own, for the fleet to ask for a boat ahead
  /// (MemoryHint).
  void hintMemory(BoatState& state) const {
    MemoryHint hint;  // made here, then stored whole: its count is known at each add
    hint.add(this, sizeof(*this));
    hint.add(own_.water.height_m);
    hint.add(own_.water.previousHeight_m);
    hint.add(own_.water.above_m);
    hint.add(own_.fraction);
    hint.add(state.patch.samples_m().data(), state.patch.samples_m().size_bytes());
    hint.add(state.patch.surfaceVelocityNodes().data(), state.patch.surfaceVelocityNodes().size_bytes());
    state.memoryHint = hint;
  }

  ColumnState own_;
};

/// Each column's axis, its wet part blue (darker the fuller) and its dry
/// part grey.
void ColumnModel::debugDraw(const BoatModel& boat, const BoatState& state, btIDebugDraw& drawer) const {
  const ColumnSoA& c = soaOf(*boat.columns);
  if (own_.fraction.size() < c.points.vertexCount) return;  // no substep on columns yet
  const btVector3 axis = state.basis * btVector3(c.axis[0], c.axis[1], c.axis[2]);
  const bool flip = axis.dot(state.frame.up) < 0;  // upside down: the wet part is the top
  const btVector3 dry(0.6f, 0.6f, 0.6f), empty(0.6f, 0.9f, 1.0f), full(0.0f, 0.1f, 0.8f);
  for (std::size_t i = 0; i < c.points.vertexCount; ++i) {
    const btVector3 centroid = state.centre_m + state.basis * btVector3(c.points.x[i], c.points.y[i], c.points.z[i]);
    const btVector3 bottom = centroid + axis * c.lo[i], top = centroid + axis * c.hi[i];
    const btScalar f = own_.fraction[i];
    const btVector3 wetEnd = flip ? top + (bottom - top) * f : bottom + (top - bottom) * f;
    const btVector3& wetStart = flip ? top : bottom;
    const btVector3& dryEnd = flip ? bottom : top;
    if (f > 0) drawer.drawLine(wetStart, wetEnd, empty.lerp(full, f));  // lighter blue: barely wet
    if (f < 1) drawer.drawLine(wetEnd, dryEnd, dry);
  }
}

}  // namespace

void ColumnState::fit(const ColumnHull& columns) {
  const std::size_t n = padded(columns.columns().size());
  water.fit(n);
  if (fraction.size() < n) fraction.resize(n, 0);
}

std::unique_ptr<ModelState> makeColumnModel() { return std::make_unique<ColumnModel>(); }

}  // namespace keel::KEEL_ABI::detail
