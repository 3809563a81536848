"""Writes, as ONNX text format for onnx-txt2pb, a model whose If nodes nest
their then-branches DEPTH deep: nested_if.py DEPTH."""
import sys


def graph(depth, indent):
    pad = " " * indent
    const = (f'{pad}node {{ op_type: "Constant" output: "c{depth}" attribute {{ name: "value" type: TENSOR '
             f't {{ data_type: 9 int32_data: 1 }} }} }}\n')
    if depth == 0:
        body = (f'{pad}node {{ op_type: "Constant" output: "y0" attribute {{ name: "value" type: TENSOR '
                f't {{ dims: 1 data_type: 1 float_data: 1 }} }} }}\n')
    else:
        body = const + (f'{pad}node {{ op_type: "If" input: "c{depth}" output: "y{depth}"\n'
                        f'{pad}  attribute {{ name: "then_branch" type: GRAPH g {{\n'
                        + graph(depth - 1, indent + 4) +
                        f'{pad}  }} }}\n'
                        f'{pad}  attribute {{ name: "else_branch" type: GRAPH g {{\n'
                        + graph(0, indent + 4) +
                        f'{pad}  }} }} }}\n')
    out = (f'{pad}output {{ name: "y{depth}" type {{ tensor_type {{ elem_type: 1 '
           f'shape {{ dim {{ dim_value: 1 }} }} }} }} }}\n')
    return f'{pad}name: "g{depth}"\n' + body + out


depth = int(sys.argv[1])
print('ir_version: 8\nopset_import { domain: "" version: 13 }\ngraph {\n' + graph(depth, 2) + "}")
