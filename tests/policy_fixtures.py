"""Python policies used by tests/test_policy_callable.py (also imported by the CLI test as
``policy_fixtures:first_move``)."""


def first_move(observation, legal_moves):
    """The first legal move listed."""
    return legal_moves[0]


def last_move(observation, legal_moves):
    """The last legal move listed."""
    return legal_moves[-1]
