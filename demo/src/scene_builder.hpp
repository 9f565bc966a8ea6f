#pragma once
/// @file scene_builder.hpp
/// Builds the harbour's Ogre geometry in code: materials, boat meshes from
/// their loaded parts, the docks, the sky. (The Debian Ogre ships no sample
/// media: everything the demo shows comes from media/ or from here.)

#include "boat_type.hpp"
#include "harbour.hpp"

#include <OgreColourValue.h>
#include <OgreMesh.h>
#include <OgreSceneManager.h>

#include <string>
#include <vector>

namespace demo {

/// How a material is lit.
enum class Lighting {
  Lit,           ///< diffuse colour, lit by the sun
  VertexColour,  ///< lit, diffuse from the vertex colours
  Unlit,         ///< vertex colours as they are (debug lines, sky)
};

/// Creates (or returns) a material in the default group.
void makeMaterial(const std::string& name, const Ogre::ColourValue& diffuse, Lighting lighting, float specular = 0.1f,
                  float shininess = 20);

/// The material of a dock piece (DockPiece::material), created on first use.
std::string dockMaterial(const std::string& kind);

/// An Ogre mesh of every part of `type`, in the body's centre-of-mass frame
/// (so a scene node placed at the body's transform shows it where Bullet
/// has it). Named "boat/<kind>".
Ogre::MeshPtr createBoatMesh(const BoatType& type);

/// One static object holding every dock piece.
Ogre::ManualObject* createDocks(Ogre::SceneManager& scene, const std::vector<DockPiece>& pieces);

/// A sky dome (vertex-coloured gradient, horizon haze to zenith blue) drawn
/// behind everything; attach it to a node that follows the camera.
Ogre::ManualObject* createSky(Ogre::SceneManager& scene, const Ogre::ColourValue& horizon,
                              const Ogre::ColourValue& zenith);

}  // namespace demo
