#version 150 core
// Ground grid: line vertices carry their colour; alpha fades with distance from the centre.

in vec3 vertexPosition;
in vec4 vertexColor;

out vec4 color;
out vec3 worldPosition;

uniform mat4 modelMatrix;
uniform mat4 mvp;

void main()
{
    color = vertexColor;
    worldPosition = (modelMatrix * vec4(vertexPosition, 1.0)).xyz;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
