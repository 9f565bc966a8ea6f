#include "scene_builder.hpp"

#include <OgreManualObject.h>
#include <OgreMaterialManager.h>
#include <OgreMeshManager.h>
#include <OgrePass.h>
#include <OgreTechnique.h>

#include <cmath>
#include <map>
#include <numbers>

namespace demo {

void makeMaterial(const std::string& name, const Ogre::ColourValue& diffuse, Lighting lighting, float specular,
                  float shininess) {
  auto& manager = Ogre::MaterialManager::getSingleton();
  if (manager.resourceExists(name, Ogre::RGN_DEFAULT)) return;
  Ogre::MaterialPtr material = manager.create(name, Ogre::RGN_DEFAULT);
  Ogre::Pass* pass = material->getTechnique(0)->getPass(0);
  pass->setDiffuse(diffuse);
  pass->setAmbient(diffuse.r, diffuse.g, diffuse.b);
  pass->setSpecular(specular, specular, specular, 1);
  pass->setShininess(shininess);
  if (lighting == Lighting::VertexColour) pass->setVertexColourTracking(Ogre::TVC_DIFFUSE | Ogre::TVC_AMBIENT);
  if (lighting == Lighting::Unlit) {
    pass->setLightingEnabled(false);
    pass->setVertexColourTracking(Ogre::TVC_DIFFUSE);
  }
}

std::string dockMaterial(const std::string& kind) {
  static const std::map<std::string, Ogre::ColourValue> colours = {
      {"stone", Ogre::ColourValue(0.40f, 0.39f, 0.36f)},  {"concrete", Ogre::ColourValue(0.66f, 0.64f, 0.58f)},
      {"wood", Ogre::ColourValue(0.50f, 0.36f, 0.22f)},   {"pile", Ogre::ColourValue(0.30f, 0.23f, 0.16f)},
      {"fender", Ogre::ColourValue(0.10f, 0.10f, 0.10f)}, {"bollard", Ogre::ColourValue(0.12f, 0.13f, 0.14f)},
  };
  const auto found = colours.find(kind);
  const std::string name = "dock/" + kind;
  makeMaterial(name, found != colours.end() ? found->second : Ogre::ColourValue(0.5f, 0.5f, 0.5f), Lighting::Lit, 0.05f,
               8);
  return name;
}

Ogre::MeshPtr createBoatMesh(const BoatType& type) {
  const std::string name = "boat/" + type.spec.kind;
  auto& meshes = Ogre::MeshManager::getSingleton();
  if (meshes.resourceExists(name, Ogre::RGN_DEFAULT)) return meshes.getByName(name, Ogre::RGN_DEFAULT);
  Ogre::ManualObject builder(name + "/builder");
  // Drawn in the body frame: the file's moved by the centre of mass and
  // turned by the principal axes.
  const btTransform& toBody = type.fileToBody;
  for (const MeshPart& part : type.mesh.parts) {
    const std::string material = "boat/" + part.material;
    // Glass gets a sharp highlight; paint a soft one.
    const bool glass = part.material == "glass";
    makeMaterial(material, Ogre::ColourValue(part.colour[0], part.colour[1], part.colour[2]), Lighting::Lit,
                 glass ? 0.8f : 0.25f, glass ? 80 : 30);
    builder.begin(material, Ogre::RenderOperation::OT_TRIANGLE_LIST);
    for (std::size_t v = 0; v + 2 < part.positions.size(); v += 3) {
      const btVector3 p = toBody * btVector3(part.positions[v], part.positions[v + 1], part.positions[v + 2]);
      const btVector3 n = toBody.getBasis() * btVector3(part.normals[v], part.normals[v + 1], part.normals[v + 2]);
      builder.position(float(p.x()), float(p.y()), float(p.z()));
      builder.normal(float(n.x()), float(n.y()), float(n.z()));
    }
    for (std::size_t i = 0; i + 2 < part.indices.size(); i += 3)
      builder.triangle(part.indices[i], part.indices[i + 1], part.indices[i + 2]);
    builder.end();
  }
  return builder.convertToMesh(name);
}

namespace {

void addBox(Ogre::ManualObject& mo, const DockPiece& piece, Ogre::uint32& base) {
  const Ogre::Vector3 c(piece.centre_m.x(), piece.centre_m.y(), piece.centre_m.z());
  const Ogre::Vector3 h(piece.halfExtents_m.x(), piece.halfExtents_m.y(), piece.halfExtents_m.z());
  // Each face: outward normal and two in-plane axes whose cross product is the normal.
  const Ogre::Vector3 axes[6][3] = {
      {Ogre::Vector3::UNIT_X, Ogre::Vector3::UNIT_Y, Ogre::Vector3::UNIT_Z},
      {Ogre::Vector3::NEGATIVE_UNIT_X, Ogre::Vector3::UNIT_Z, Ogre::Vector3::UNIT_Y},
      {Ogre::Vector3::UNIT_Y, Ogre::Vector3::UNIT_Z, Ogre::Vector3::UNIT_X},
      {Ogre::Vector3::NEGATIVE_UNIT_Y, Ogre::Vector3::UNIT_X, Ogre::Vector3::UNIT_Z},
      {Ogre::Vector3::UNIT_Z, Ogre::Vector3::UNIT_X, Ogre::Vector3::UNIT_Y},
      {Ogre::Vector3::NEGATIVE_UNIT_Z, Ogre::Vector3::UNIT_Y, Ogre::Vector3::UNIT_X},
  };
  for (const auto& face : axes) {
    const Ogre::Vector3 n = face[0], a = face[1], b = face[2];
    const Ogre::Vector3 centre = c + n * h;
    const Ogre::Vector3 da = a * h, db = b * h;
    for (const Ogre::Vector3& p : {centre - da - db, centre + da - db, centre + da + db, centre - da + db}) {
      mo.position(p);
      mo.normal(n);
    }
    mo.quad(base, base + 1, base + 2, base + 3);
    base += 4;
  }
}

void addCylinder(Ogre::ManualObject& mo, const DockPiece& piece, Ogre::uint32& base) {
  constexpr int kSegments = 14;
  const float r = piece.halfExtents_m.x(), h = piece.halfExtents_m.y();
  const Ogre::Vector3 c(piece.centre_m.x(), piece.centre_m.y(), piece.centre_m.z());
  for (int k = 0; k <= kSegments; ++k) {
    const float a = 2 * std::numbers::pi_v<float> * float(k) / kSegments;
    const Ogre::Vector3 n(std::cos(a), 0, std::sin(a));
    mo.position(c + n * r + Ogre::Vector3(0, -h, 0));
    mo.normal(n);
    mo.position(c + n * r + Ogre::Vector3(0, h, 0));
    mo.normal(n);
  }
  for (int k = 0; k < kSegments; ++k) {
    const Ogre::uint32 b0 = base + 2 * Ogre::uint32(k), t0 = b0 + 1, b1 = b0 + 2, t1 = b0 + 3;
    mo.quad(b0, t0, t1, b1);
  }
  base += 2 * (kSegments + 1);
  // Top cap (the bottom is under water or in the seabed).
  const Ogre::uint32 centre = base;
  mo.position(c + Ogre::Vector3(0, h, 0));
  mo.normal(Ogre::Vector3::UNIT_Y);
  for (int k = 0; k <= kSegments; ++k) {
    const float a = 2 * std::numbers::pi_v<float> * float(k) / kSegments;
    mo.position(c + Ogre::Vector3(r * std::cos(a), h, r * std::sin(a)));
    mo.normal(Ogre::Vector3::UNIT_Y);
  }
  for (int k = 0; k < kSegments; ++k) mo.triangle(centre, centre + 2 + Ogre::uint32(k), centre + 1 + Ogre::uint32(k));
  base += kSegments + 2;
}

}  // namespace

Ogre::ManualObject* createDocks(Ogre::SceneManager& scene, const std::vector<DockPiece>& pieces) {
  Ogre::ManualObject* mo = scene.createManualObject("docks");
  std::map<std::string, std::vector<const DockPiece*>> byMaterial;
  for (const DockPiece& piece : pieces) byMaterial[piece.material].push_back(&piece);
  for (const auto& [kind, list] : byMaterial) {
    mo->begin(dockMaterial(kind), Ogre::RenderOperation::OT_TRIANGLE_LIST);
    Ogre::uint32 base = 0;
    for (const DockPiece* piece : list) {
      if (piece->shape == DockPiece::Shape::Box)
        addBox(*mo, *piece, base);
      else
        addCylinder(*mo, *piece, base);
    }
    mo->end();
  }
  return mo;
}

Ogre::ManualObject* createSky(Ogre::SceneManager& scene, const Ogre::ColourValue& horizon,
                              const Ogre::ColourValue& zenith) {
  makeMaterial("sky", Ogre::ColourValue::White, Lighting::Unlit);
  Ogre::MaterialPtr material = Ogre::MaterialManager::getSingleton().getByName("sky", Ogre::RGN_DEFAULT);
  Ogre::Pass* pass = material->getTechnique(0)->getPass(0);
  pass->setDepthWriteEnabled(false);
  pass->setFog(true, Ogre::FOG_NONE);
  pass->setCullingMode(Ogre::CULL_NONE);
  Ogre::ManualObject* sky = scene.createManualObject("sky");
  sky->setRenderQueueGroup(Ogre::RENDER_QUEUE_SKIES_EARLY);
  constexpr int kRings = 12, kSegments = 32;
  constexpr float kRadius_m = 1500;
  sky->begin("sky", Ogre::RenderOperation::OT_TRIANGLE_LIST);
  // From a little below the horizon (under the sea's far edge) to the zenith.
  for (int i = 0; i <= kRings; ++i) {
    const float elevation = -0.1f + (std::numbers::pi_v<float> / 2 + 0.1f) * float(i) / kRings;
    const float t = std::pow(std::max(0.0f, std::sin(elevation)), 0.5f);
    const Ogre::ColourValue colour = horizon * (1 - t) + zenith * t;
    for (int k = 0; k <= kSegments; ++k) {
      const float a = 2 * std::numbers::pi_v<float> * float(k) / kSegments;
      sky->position(kRadius_m * std::cos(elevation) * std::cos(a), kRadius_m * std::sin(elevation),
                    kRadius_m * std::cos(elevation) * std::sin(a));
      sky->colour(colour);
    }
  }
  for (int i = 0; i < kRings; ++i)
    for (int k = 0; k < kSegments; ++k) {
      const Ogre::uint32 a = Ogre::uint32(i * (kSegments + 1) + k), b = a + kSegments + 1;
      sky->quad(a, a + 1, b + 1, b);
    }
  sky->end();
  return sky;
}

}  // namespace demo
