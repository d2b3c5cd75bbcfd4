#version 150 core
// Lit mesh material, vertex stage (GLSL 1.50 core, OpenGL 3.2).

in vec3 vertexPosition;
in vec3 vertexNormal;
in vec4 vertexColor;

out vec3 worldPosition;
out vec3 worldNormal;
out vec4 color;

uniform mat4 modelMatrix;
uniform mat3 modelNormalMatrix;
uniform mat4 mvp;

void main()
{
    worldPosition = (modelMatrix * vec4(vertexPosition, 1.0)).xyz;
    worldNormal = modelNormalMatrix * vertexNormal;
    color = vertexColor;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
