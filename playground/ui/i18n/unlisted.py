"""Chinese for texts the scan of our f-strings (tests/ui/client_texts.py) cannot list: the problems
pydantic writes when a request model refuses a value (`client.validation.problems_from` makes them
"{where}: {message} (got …)"), and wrappers with no words of their own ("line {line}: {reason}").
tests/ui/test_client_words.py checks that pydantic still writes these words.
"""

ZH: dict[str, str] = {
    "{where}: {message} (got {got})": "{where}：{message}（收到 {got}）",
    "{where}: {message}": "{where}：{message}",
    "line {line}: {reason}": "第 {line} 行：{reason}",
    "row {line}: {reason}": "第 {line} 行：{reason}",
    "missing {names}": "缺少 {names}",
    "extra {names}": "多出 {names}",
    "Input should be less than or equal to {limit}": "应小于或等于 {limit}",
    "Input should be greater than or equal to {limit}": "应大于或等于 {limit}",
    "Input should be less than {limit}": "应小于 {limit}",
    "Input should be greater than {limit}": "应大于 {limit}",
    "Input should be {expected}": "应为 {expected}",
    "Input should be a valid boolean, unable to interpret input": "应为 true 或 false，无法识别输入的值",
    "Input should be a valid boolean": "应为 true 或 false",
    "Input should be a valid dictionary": "应为 JSON 对象",
    "Input should be a valid list": "应为数组（列表）",
    "Input should be a valid string": "应为文本",
    "Input should be a valid number, unable to parse string as a number": "应为数字，这段文本读不成数字",
    "Input should be a valid number": "应为数字",
    "Input should be a finite number": "应为有限的数字",
    "Input should be a valid integer, got a number with a fractional part": "应为整数，收到的数字带小数部分",
    "Input should be a valid integer, unable to parse string as an integer": "应为整数，这段文本读不成整数",
    "Input should be a valid integer": "应为整数",
    "Extra inputs are not permitted": "不接受这个字段",
    "Field required": "必须填写",
    "String should have at least {count} character": "文本至少要有 {count} 个字符",
    "String should have at least {count} characters": "文本至少要有 {count} 个字符",
    "String should have at most {count} characters": "文本最多 {count} 个字符",
    "List should have at least {count} item after validation, not {actual}": "至少要有 {count} 项，现在是 {actual} 项",
    "List should have at least {count} items after validation, not {actual}": "至少要有 {count} 项，现在是 {actual} 项",
    "List should have at most {count} items after validation, not {actual}": "最多 {count} 项，现在是 {actual} 项",
}
