#pragma once
// One buoyancy model's own state and what the action asks of it: its
// substep, its cut for drawing, its own debug drawing. Each model lives in
// a folder of its own (the triangles in lib/src/substep, the columns in
// lib/src/columns) and has one entry in makeModelState (model.cpp), the one
// place that dispatches on BuoyancyModel: a third model is a folder and an
// entry there.

#include "substep/substep.hpp"

#include <memory>
#include <span>
#include <vector>

class btIDebugDraw;

namespace keel::KEEL_ABI::detail {

/// A buoyancy model's state kept from one substep to the next, and its
/// operations. Sized lazily (at its first substep), so that a boat never
/// put on a model holds none of its memory.
class ModelState {
 public:
  virtual ~ModelState() = default;
  /// Sizes what the model keeps for `boat` when it is smaller (allocates
  /// the first time, and for larger columns); run() calls it too.
  virtual void fit(const BoatModel& boat) = 0;
  /// fit(), and forgets the history kept between substeps (the last
  /// substep's water, slamming's swept rates): the boat has just been put on
  /// this model, or on other columns, so what the model kept is stale.
  void restart(const BoatModel& boat) {
    fit(boat);
    forgetHistory();
  }
  /// One substep of the model on `boat` (runSubstep's contract).
  [[nodiscard]] virtual bool run(const BoatModel& boat, BoatState& state, const BodySnapshot& body, btScalar dt_s,
                                 double t_s) = 0;
  /// The last substep's submerged pieces and waterline (relative, world
  /// axes), rebuilt from what the model kept; empty for a model without a
  /// cut (the default).
  virtual void drawnCut(const BoatModel& boat, const BoatState& state, std::vector<SubmergedPiece>& pieces,
                        std::vector<WaterlineSegment>& waterline) const;
  /// What the model draws of itself beyond the generic cut and arrows
  /// (WaterAction::debugDraw); nothing by default.
  virtual void debugDraw(const BoatModel& boat, const BoatState& state, btIDebugDraw& drawer) const;
  /// A copy of this state (rollback; allocates).
  [[nodiscard]] virtual std::unique_ptr<ModelState> clone() const = 0;
  /// Becomes `from`, a state of the same model, reusing this one's memory
  /// where it is large enough (rollback).
  virtual void assign(const ModelState& from) = 0;
  /// Each element's immersed fraction at the last substep (the columns'),
  /// empty for a model without elements (the default).
  [[nodiscard]] virtual std::span<const btScalar> immersion() const { return {}; }

 private:
  /// Forgets the history kept between substeps (restart()).
  virtual void forgetHistory() = 0;
};

/// A new, empty state of `model` (model.cpp).
[[nodiscard]] std::unique_ptr<ModelState> makeModelState(BuoyancyModel model);

/// The triangle model's state (lib/src/substep/triangle_model.cpp).
[[nodiscard]] std::unique_ptr<ModelState> makeTriangleModel();
/// The column model's state (lib/src/columns/column_model.cpp).
[[nodiscard]] std::unique_ptr<ModelState> makeColumnModel();

}  // namespace keel::KEEL_ABI::detail
