#version 150 core
// Ground grid: line vertices carry their colour; alpha fades with distance from the centre.

in vec3 vertexPosition;
in vec4 vertexColor;

out vec4 color;
out vec3 gridPosition;  // in the grid's own plane (y up), whatever turn the entity has

uniform mat4 mvp;

void main()
{
    color = vertexColor;
    gridPosition = vertexPosition;
    gl_Position = mvp * vec4(vertexPosition, 1.0);
}
