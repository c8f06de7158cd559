"""Tools every customer-service world offers: a calculator and a hand-off to a human."""

from __future__ import annotations

import ast
import operator

from environments.tool_world import ToolError, params, tool

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_MAX_EXPRESSION = 200


def evaluate_arithmetic(expression: str) -> float:
    """+ - * / and parentheses over numbers; anything else is refused (no eval of arbitrary code)."""
    if len(expression) > _MAX_EXPRESSION:
        raise ToolError(f"expression longer than {_MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise ToolError("expression is not valid arithmetic") from None
    return _evaluate(tree.body)


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Div) and right == 0:
            raise ToolError("division by zero")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    raise ToolError("only numbers, + - * / and parentheses are allowed")


class CustomerServiceTools:
    """Mixin for ToolWorld domains."""

    @tool(
        "Evaluate an arithmetic expression (numbers, + - * /, parentheses); the result is rounded to 2 decimals.",
        params({"expression": {"type": "string", "description": "e.g. '(129.99 - 20) * 2'"}}),
    )
    def calculate(self, expression: str) -> float:
        return round(evaluate_arithmetic(expression), 2)

    @tool(
        "Hand the conversation to a human agent, with a short summary of the user's issue. "
        "Use only when the request cannot be handled with the other tools.",
        params({"summary": {"type": "string"}}),
    )
    def transfer_to_human_agents(self, summary: str) -> str:
        self.session["transferred"] = True
        return "Transfer successful"
