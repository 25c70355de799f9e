import engine


def test_engine_imports() -> None:
    assert engine.__doc__
